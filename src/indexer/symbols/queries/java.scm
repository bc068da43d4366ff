; Java tags. Qualified names: package.Class#member, package.Outer.Inner.

(package_declaration [(scoped_identifier) (identifier)] @package)

(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum

(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.constant
(enum_constant name: (identifier) @name) @definition.constant

(method_invocation name: (identifier) @name) @reference.call
(object_creation_expression type: [(type_identifier) (scoped_type_identifier (type_identifier) @name .)] @name) @reference.call
(method_reference (identifier) @name .) @reference.reference

(import_declaration [(scoped_identifier name: (identifier) @name) (identifier) @name]) @reference.import

(superclass (type_identifier) @name) @reference.type
(super_interfaces (type_list (type_identifier) @name)) @reference.type
(field_declaration type: (type_identifier) @name) @reference.type
(formal_parameter type: (type_identifier) @name) @reference.type
(local_variable_declaration type: (type_identifier) @name) @reference.type
(method_declaration type: (type_identifier) @name) @reference.type

(field_access field: (identifier) @name) @reference.reference
