; Kotlin tags (tree-sitter-kotlin from tree-sitter-wasms). Qualified names: package.Class#member, package.Outer.Inner.
; The grammar has almost no fields, so patterns match by child node type.
; Members are only taken from the bodies of class/interface/enum/object/companion declarations: functions and
; properties in function bodies are locals, and those in object expressions (`object : Runnable { ... }`) would
; otherwise be qualified as members of the enclosing class.
; An unnamed `companion object` is no symbol (a capture needs a name node, and it has none): its members qualify
; directly under the class (`Order#create`), which is how Kotlin code calls them (`Order.create(...)`).

(package_header (identifier) @package)

; --- types (the specific keyword patterns come before the general class pattern)
(class_declaration "interface" (type_identifier) @name) @definition.interface
(class_declaration "enum" (type_identifier) @name) @definition.enum
(class_declaration (type_identifier) @name) @definition.class
(object_declaration (type_identifier) @name) @definition.class
(companion_object (type_identifier) @name) @definition.class
(type_alias (type_identifier) @name) @definition.type

; --- top-level functions and properties
(source_file (function_declaration (simple_identifier) @name) @definition.function)
(source_file
  (property_declaration
    (modifiers (property_modifier) @_const)
    (variable_declaration (simple_identifier) @name)) @definition.constant
  (#eq? @_const "const"))
(source_file (property_declaration (variable_declaration (simple_identifier) @name)) @definition.field)

; --- members of classes, interfaces, objects and companion objects
(class_declaration (class_body (function_declaration (simple_identifier) @name) @definition.method))
(object_declaration (class_body (function_declaration (simple_identifier) @name) @definition.method))
(companion_object (class_body (function_declaration (simple_identifier) @name) @definition.method))
(class_declaration (enum_class_body (function_declaration (simple_identifier) @name) @definition.method))

(class_declaration
  (class_body
    (property_declaration
      (modifiers (property_modifier) @_const)
      (variable_declaration (simple_identifier) @name)) @definition.constant)
  (#eq? @_const "const"))
(object_declaration
  (class_body
    (property_declaration
      (modifiers (property_modifier) @_const)
      (variable_declaration (simple_identifier) @name)) @definition.constant)
  (#eq? @_const "const"))
(companion_object
  (class_body
    (property_declaration
      (modifiers (property_modifier) @_const)
      (variable_declaration (simple_identifier) @name)) @definition.constant)
  (#eq? @_const "const"))

(class_declaration (class_body (property_declaration (variable_declaration (simple_identifier) @name)) @definition.field))
(object_declaration (class_body (property_declaration (variable_declaration (simple_identifier) @name)) @definition.field))
(companion_object (class_body (property_declaration (variable_declaration (simple_identifier) @name)) @definition.field))
(class_declaration (enum_class_body (property_declaration (variable_declaration (simple_identifier) @name)) @definition.field))

; `class Order(val id: String)`: constructor parameters declared with val/var are properties; plain ones are not.
(class_parameter (binding_pattern_kind) (simple_identifier) @name) @definition.field

(secondary_constructor "constructor" @name) @definition.method
(enum_entry (simple_identifier) @name) @definition.constant

; --- references
; `import a.b.C` and `import a.b.C as D` name C; a wildcard import (`import a.b.*`) names no symbol and is skipped.
(import_header (identifier (simple_identifier) @name .) .) @reference.import
(import_header (identifier (simple_identifier) @name .) (import_alias)) @reference.import

; `f(x)`, `Order(id)` and `a.b.f(x)`; listed before member accesses so the callee's name is a call, not a reference.
(call_expression (simple_identifier) @name) @reference.call
(call_expression (navigation_expression (navigation_suffix (simple_identifier) @name))) @reference.call

(navigation_expression (navigation_suffix (simple_identifier) @name)) @reference.reference

; Type uses: parameter, property and return types, supertypes, type arguments, extension receivers.
(user_type (type_identifier) @name) @reference.type
