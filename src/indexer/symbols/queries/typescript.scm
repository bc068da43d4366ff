; TypeScript tags (also used for TSX, so only node types both grammars share: no JSX patterns here).
; Qualified names: Class#member, Namespace.Class#member, top-level functionName. No package prefix.
; Exported declarations are captured on their export_statement so signatures keep `export` (that match starts, and
; so completes, before the bare declaration's). Matches are taken in the order they complete: where two patterns
; share a name, the more specific one is listed first and both end on the same node, so the specific one wins.

; --- types -------------------------------------------------------------------------------------------------------

(export_statement declaration: (class_declaration name: (type_identifier) @name)) @definition.class
(export_statement declaration: (abstract_class_declaration name: (type_identifier) @name)) @definition.class
(export_statement declaration: (interface_declaration name: (type_identifier) @name)) @definition.interface
(export_statement declaration: (enum_declaration name: (identifier) @name)) @definition.enum
(export_statement declaration: (type_alias_declaration name: (type_identifier) @name)) @definition.type
(export_statement declaration: (internal_module name: [(identifier) (nested_identifier)] @name)) @definition.module

(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(type_alias_declaration name: (type_identifier) @name) @definition.type
(internal_module name: [(identifier) (nested_identifier)] @name) @definition.module
(module name: (identifier) @name) @definition.module
(module name: (string (string_fragment) @name)) @definition.module

; --- functions: top level and namespace level only (nested functions are locals) -----------------------------------

(export_statement declaration: [
  (function_declaration name: (identifier) @name)
  (generator_function_declaration name: (identifier) @name)
  (function_signature name: (identifier) @name)
  (ambient_declaration (function_signature name: (identifier) @name))
]) @definition.function

(program [
  (function_declaration name: (identifier) @name)
  (generator_function_declaration name: (identifier) @name)
  (function_signature name: (identifier) @name)
] @definition.function)

(ambient_declaration (function_signature name: (identifier) @name) @definition.function)

(internal_module body: (statement_block [
  (function_declaration name: (identifier) @name)
  (generator_function_declaration name: (identifier) @name)
  (function_signature name: (identifier) @name)
] @definition.function))
(module body: (statement_block [
  (function_declaration name: (identifier) @name)
  (generator_function_declaration name: (identifier) @name)
  (function_signature name: (identifier) @name)
] @definition.function))

; --- module-level variables: functions assigned to a name, and constants (let/var values are skipped) --------------

(export_statement declaration: [
  (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]))
  (variable_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]))
]) @definition.function

(program [
  (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]))
  (variable_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]))
] @definition.function)

(internal_module body: (statement_block [
  (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]))
  (variable_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]))
] @definition.function))
(module body: (statement_block [
  (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]))
  (variable_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]))
] @definition.function))

; Matches are taken in the order they complete, so these patterns end on the value node like the function patterns
; above (listed first, they win for function values); `declare const X: T` has no value.
(export_statement declaration: (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name value: (_)))) @definition.constant
(program (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name value: (_))) @definition.constant)
(internal_module body: (statement_block (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name value: (_))) @definition.constant))
(module body: (statement_block (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name value: (_))) @definition.constant))
(export_statement declaration: (ambient_declaration (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name)))) @definition.constant
(program (ambient_declaration (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name))) @definition.constant)
(internal_module body: (statement_block (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name !value)) @definition.constant))
(module body: (statement_block (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name !value)) @definition.constant))

; --- members ---------------------------------------------------------------------------------------------------

(class_body (method_definition name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name) @definition.method)
(class_body (method_signature name: [(property_identifier) (private_property_identifier)] @name) @definition.method)
(class_body (abstract_method_signature name: [(property_identifier) (private_property_identifier)] @name) @definition.method)
(class_body (public_field_definition name: [(property_identifier) (private_property_identifier)] @name value: [(arrow_function) (function_expression)]) @definition.method)
(class_body (public_field_definition name: [(property_identifier) (private_property_identifier)] @name value: (_)) @definition.field)
(class_body (public_field_definition name: [(property_identifier) (private_property_identifier)] @name !value) @definition.field)

; Constructor parameter properties: `constructor(private readonly logger: Logger)` declares a field.
(required_parameter (accessibility_modifier) pattern: (identifier) @name) @definition.field
(required_parameter "readonly" pattern: (identifier) @name) @definition.field
(optional_parameter (accessibility_modifier) pattern: (identifier) @name) @definition.field
(optional_parameter "readonly" pattern: (identifier) @name) @definition.field

(interface_body (method_signature name: (property_identifier) @name) @definition.method)
(interface_body (property_signature name: (property_identifier) @name) @definition.field)

(enum_body name: (property_identifier) @name @definition.constant)
(enum_body (enum_assignment name: (property_identifier) @name) @definition.constant)

; --- references: calls ------------------------------------------------------------------------------------------

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (member_expression property: [(property_identifier) (private_property_identifier)] @name)) @reference.call
(new_expression constructor: (identifier) @name) @reference.call
(new_expression constructor: (member_expression property: (property_identifier) @name)) @reference.call

; --- references: imports (the imported name, not the local alias) ------------------------------------------------

(import_specifier name: (identifier) @name) @reference.import
(import_clause (identifier) @name) @reference.import
(namespace_import (identifier) @name) @reference.import
(export_statement (export_clause (export_specifier name: (identifier) @name)) source: (string)) @reference.import

; --- references: types -------------------------------------------------------------------------------------------

(extends_clause value: (identifier) @name) @reference.type
(extends_clause value: (member_expression property: (property_identifier) @name)) @reference.type
(implements_clause (type_identifier) @name) @reference.type
(extends_type_clause (type_identifier) @name) @reference.type
(extends_type_clause (nested_type_identifier name: (type_identifier) @name)) @reference.type
(type_annotation (type_identifier) @name) @reference.type
(type_annotation (nested_type_identifier name: (type_identifier) @name)) @reference.type
(generic_type name: (type_identifier) @name) @reference.type
(generic_type name: (nested_type_identifier name: (type_identifier) @name)) @reference.type
(type_arguments (type_identifier) @name) @reference.type
(array_type (type_identifier) @name) @reference.type
(union_type (type_identifier) @name) @reference.type
(intersection_type (type_identifier) @name) @reference.type
(tuple_type (type_identifier) @name) @reference.type
(function_type return_type: (type_identifier) @name) @reference.type
(constraint (type_identifier) @name) @reference.type
(default_type (type_identifier) @name) @reference.type
(type_alias_declaration value: (type_identifier) @name) @reference.type
(as_expression (type_identifier) @name) @reference.type
(satisfies_expression (type_identifier) @name) @reference.type

; --- references: member accesses (after calls, so `a.b()` stays a call) ------------------------------------------

(member_expression property: [(property_identifier) (private_property_identifier)] @name) @reference.reference
