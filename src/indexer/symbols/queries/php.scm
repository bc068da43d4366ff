; PHP tags. Qualified names: Namespace.Class#member (the namespace's backslashes become dots), Namespace.function.
; Traits are interfaces (README mapping); properties are named without `$`, as `->name` accesses them.

(namespace_definition name: (namespace_name) @package)

; --- types ---------------------------------------------------------------------------------------------------------

(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.interface
(enum_declaration name: (name) @name) @definition.enum

; --- functions, methods, constants, properties ------------------------------------------------------------------

(function_definition name: (name) @name) @definition.function
(method_declaration name: (name) @name) @definition.method

(const_declaration (const_element (name) @name)) @definition.constant
(enum_case name: (name) @name) @definition.constant

(property_declaration (property_element name: (variable_name (name) @name))) @definition.field
; Constructor promotion: __construct(private readonly Gateway $gateway) declares a property.
(property_promotion_parameter name: (variable_name (name) @name)) @definition.field

; --- references: calls (`new X` is a call to X) ---------------------------------------------------------------------

(function_call_expression function: (name) @name) @reference.call
(function_call_expression function: (qualified_name (name) @name)) @reference.call
(member_call_expression name: (name) @name) @reference.call
(nullsafe_member_call_expression name: (name) @name) @reference.call
(scoped_call_expression name: (name) @name) @reference.call
(object_creation_expression (name) @name) @reference.call
(object_creation_expression (qualified_name (name) @name)) @reference.call

; --- references: imports (the imported name, not its alias) ------------------------------------------------------

(namespace_use_clause (qualified_name (name) @name)) @reference.import
(namespace_use_clause . (name) @name) @reference.import

; --- references: types ---------------------------------------------------------------------------------------------

(base_clause (name) @name) @reference.type
(base_clause (qualified_name (name) @name)) @reference.type
(class_interface_clause (name) @name) @reference.type
(class_interface_clause (qualified_name (name) @name)) @reference.type
(use_declaration (name) @name) @reference.type
(use_declaration (qualified_name (name) @name)) @reference.type
((named_type (name) @name) @reference.type (#not-any-of? @name "self" "static" "parent"))
(named_type (qualified_name (name) @name)) @reference.type

; --- references: member accesses -----------------------------------------------------------------------------------

(member_access_expression name: (name) @name) @reference.reference
(nullsafe_member_access_expression name: (name) @name) @reference.reference
(scoped_property_access_expression name: (variable_name (name) @name)) @reference.reference
((class_constant_access_expression (name) @name .) @reference.reference (#not-eq? @name "class"))
