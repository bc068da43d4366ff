; Swift tags (tree-sitter-swift from tree-sitter-wasms). No package: qualified names are Type#member, Outer.Inner.
; `extension Foo { ... }` is a scope, so its members qualify as Foo#member. In this grammar class, struct, actor, enum
; and extension are all `class_declaration`, told apart by the `declaration_kind` keyword.
; Members are only taken from type bodies and the top level: functions and properties in function bodies are locals.

; --- types
(class_declaration declaration_kind: "enum" name: (type_identifier) @name) @definition.enum
(class_declaration declaration_kind: "class" name: (type_identifier) @name) @definition.class
(class_declaration declaration_kind: "struct" name: (type_identifier) @name) @definition.class
(class_declaration declaration_kind: "actor" name: (type_identifier) @name) @definition.class
(protocol_declaration name: (type_identifier) @name) @definition.interface
(typealias_declaration name: (type_identifier) @name) @definition.type
(associatedtype_declaration name: (type_identifier) @name) @definition.type

; `extension Foo.Bar` qualifies as Foo.Bar (the nested type's own name); `extension Array<Int>` as Array.
(class_declaration declaration_kind: "extension" name: (user_type (type_identifier) .) @scope.name) @scope
(class_declaration declaration_kind: "extension" name: (user_type (type_identifier) @scope.name . (type_arguments) .)) @scope

; --- functions and methods
(source_file (function_declaration name: (simple_identifier) @name) @definition.function)
(class_body (function_declaration name: (simple_identifier) @name) @definition.method)
(enum_class_body (function_declaration name: (simple_identifier) @name) @definition.method)
(protocol_function_declaration name: (simple_identifier) @name) @definition.method
(init_declaration "init" @name) @definition.method

; --- properties: a global `let` and a `static let` are constants, other properties are fields
(source_file
  (property_declaration
    (value_binding_pattern mutability: "let")
    name: (pattern bound_identifier: (simple_identifier) @name)) @definition.constant)
(source_file (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field)

(class_body
  (property_declaration
    (modifiers (property_modifier) @_static)
    (value_binding_pattern mutability: "let")
    name: (pattern bound_identifier: (simple_identifier) @name)) @definition.constant
  (#eq? @_static "static"))
(enum_class_body
  (property_declaration
    (modifiers (property_modifier) @_static)
    (value_binding_pattern mutability: "let")
    name: (pattern bound_identifier: (simple_identifier) @name)) @definition.constant
  (#eq? @_static "static"))
(class_body (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field)
(enum_class_body (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field)
(protocol_property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field

(enum_entry name: (simple_identifier) @name) @definition.constant

; --- references
; `import Foundation` names the module, `import struct Foundation.Date` the declaration.
(import_declaration (identifier (simple_identifier) @name .)) @reference.import

; Calls, listed before member accesses so a callee `a.f(x)` is a call, not a reference.
(call_expression (simple_identifier) @name) @reference.call
(call_expression (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @name))) @reference.call

(navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @name)) @reference.reference

; Type uses: annotations, parameter and return types, conformances, generic arguments, extended types.
(user_type (type_identifier) @name) @reference.type
