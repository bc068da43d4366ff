; Scala 2 tags (tree-sitter-scala 0.19 from tree-sitter-wasms). Qualified names: package.Type#member, package.Outer.Inner.
; A class and its companion object share one qualified prefix (`pkg.Invoice#apply`, `pkg.Invoice#summary`).
; Members are only taken from template bodies (class/trait/object bodies) and the top level: `def`s and `val`s in
; blocks are locals.

(package_clause name: (package_identifier) @package)

; --- types
(trait_definition name: (identifier) @name) @definition.interface
(class_definition name: (identifier) @name) @definition.class
(object_definition name: (identifier) @name) @definition.class
(package_object name: (identifier) @name) @definition.module

(template_body (type_definition name: (type_identifier) @name) @definition.type)
(compilation_unit (type_definition name: (type_identifier) @name) @definition.type)

; --- methods and functions (a function inside a type becomes a method)
(template_body (function_definition name: (identifier) @name) @definition.function)
(template_body (function_declaration name: (identifier) @name) @definition.function)
(compilation_unit (function_definition name: (identifier) @name) @definition.function)

; --- fields: `final val` is a constant, other vals/vars (and abstract ones) are fields
(template_body (val_definition (modifiers "final") pattern: (identifier) @name) @definition.constant)
(template_body (val_definition pattern: (identifier) @name) @definition.field)
(template_body (var_definition pattern: (identifier) @name) @definition.field)
(template_body (val_declaration name: (identifier) @name) @definition.field)
(template_body (var_declaration name: (identifier) @name) @definition.field)
(compilation_unit (val_definition pattern: (identifier) @name) @definition.field)

; Constructor parameters are fields when declared with val/var, and always in a case class.
(class_definition "case" class_parameters: (class_parameters (class_parameter name: (identifier) @name) @definition.field))
(class_parameter "val" name: (identifier) @name) @definition.field
(class_parameter "var" name: (identifier) @name) @definition.field

; --- references
; `import a.b.C` names C; `import a.b.{C, D => E}` names C and D; `import a.b._` names no symbol.
(import_declaration path: (stable_identifier (identifier) @name .) .) @reference.import
(import_declaration path: (identifier) @name .) @reference.import
(import_selectors (identifier) @name) @reference.import
(import_selectors (renamed_identifier name: (identifier) @name)) @reference.import

; Calls, listed before member accesses so a callee `a.f(x)` is a call, not a reference.
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression field: (identifier) @name)) @reference.call
(call_expression function: (generic_function function: (identifier) @name)) @reference.call
(call_expression function: (generic_function function: (field_expression field: (identifier) @name))) @reference.call
(instance_expression (identifier) @name) @reference.call
; `a max b`: an alphanumeric infix operator is a method call (symbolic ones like `+` are skipped).
(infix_expression operator: (identifier) @name) @reference.call

(field_expression field: (identifier) @name) @reference.reference

; Type uses: parameter, field and return types, supertypes, type arguments, `pkg.Type` (its last part).
(type_identifier) @name @reference.type
