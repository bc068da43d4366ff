; C# tags. Qualified names: Namespace.Class#Member, Namespace.Outer.Inner. A file-scoped `namespace A.B;` is the
; @package prefix; a block `namespace A.B { }` is a module container (it can nest and there can be several),
; so both forms give A.B.Class#Member. Visibility from modifiers (public, private, protected, internal).

(file_scoped_namespace_declaration name: [(identifier) (qualified_name)] @package)
(namespace_declaration name: [(identifier) (qualified_name)] @name) @definition.module

; Types.
(class_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(delegate_declaration name: (identifier) @name) @definition.type

; Members. Properties and events are fields; positional record parameters are properties of the record.
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field
(event_field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field
(property_declaration name: (identifier) @name) @definition.field
(event_declaration name: (identifier) @name) @definition.field
(enum_member_declaration name: (identifier) @name) @definition.constant
(record_declaration (parameter_list (parameter name: (identifier) @name) @definition.field))

; Imports: the namespace or type named by `using X.Y;`, `using static X.Y;`, `using Alias = X.Y;`.
(using_directive !name [(identifier) (qualified_name)] @name) @reference.import
(using_directive name: (identifier) [(identifier) (qualified_name)] @name) @reference.import

; Calls: F(), obj.F(), obj.F<T>(), F<T>(), obj?.F(), new T(...).
((invocation_expression function: (identifier) @name) @reference.call (#not-eq? @name "nameof"))
(invocation_expression function: (generic_name (identifier) @name)) @reference.call
(invocation_expression function: (member_access_expression name: [(identifier) @name (generic_name (identifier) @name)])) @reference.call
(invocation_expression function: (conditional_access_expression (member_binding_expression name: [(identifier) @name (generic_name (identifier) @name)]))) @reference.call
(object_creation_expression type: [(identifier) @name (generic_name (identifier) @name) (qualified_name name: (identifier) @name)]) @reference.call

; Type uses in declarations and signatures: T, T<...>, A.T, T?, T[] as a parameter, return, variable, field,
; property or event type, a base type, or a generic argument.
(parameter type: [(identifier) @name (generic_name (identifier) @name) (qualified_name name: (identifier) @name) (nullable_type type: [(identifier) @name (generic_name (identifier) @name)]) (array_type type: [(identifier) @name (generic_name (identifier) @name)])]) @reference.type
(method_declaration returns: [(identifier) @name (generic_name (identifier) @name) (qualified_name name: (identifier) @name) (nullable_type type: [(identifier) @name (generic_name (identifier) @name)]) (array_type type: [(identifier) @name (generic_name (identifier) @name)])]) @reference.type
(delegate_declaration type: [(identifier) @name (generic_name (identifier) @name) (qualified_name name: (identifier) @name) (nullable_type type: [(identifier) @name (generic_name (identifier) @name)]) (array_type type: [(identifier) @name (generic_name (identifier) @name)])]) @reference.type
(variable_declaration type: [(identifier) @name (generic_name (identifier) @name) (qualified_name name: (identifier) @name) (nullable_type type: [(identifier) @name (generic_name (identifier) @name)]) (array_type type: [(identifier) @name (generic_name (identifier) @name)])]) @reference.type
(property_declaration type: [(identifier) @name (generic_name (identifier) @name) (qualified_name name: (identifier) @name) (nullable_type type: [(identifier) @name (generic_name (identifier) @name)]) (array_type type: [(identifier) @name (generic_name (identifier) @name)])]) @reference.type
(base_list [(identifier) @name (generic_name (identifier) @name) (qualified_name name: (identifier) @name)]) @reference.type
(type_argument_list [(identifier) @name (generic_name (identifier) @name) (qualified_name name: (identifier) @name)]) @reference.type

; Member accesses that are not calls: obj.Field, Type.Constant, obj?.Prop.
(member_access_expression name: (identifier) @name) @reference.reference
(member_binding_expression name: (identifier) @name) @reference.reference
