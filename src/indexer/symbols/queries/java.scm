; Java tags. Qualified names: package.Class#member, package.Outer.Inner.
; Members are only taken from the bodies of class, record, interface, enum and annotation declarations: the bodies of
; anonymous classes (`new Runnable() { ... }`) and of enum constants (`PLUS { ... }`) are not declarations of the
; enclosing type, so their methods are no symbols and the references in them belong to the enclosing method.

(package_declaration [(scoped_identifier) (identifier)] @package)

; --- types
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum

; --- methods and constructors
(class_declaration body: (class_body (method_declaration name: (identifier) @name) @definition.method))
(record_declaration body: (class_body (method_declaration name: (identifier) @name) @definition.method))
(interface_declaration body: (interface_body (method_declaration name: (identifier) @name) @definition.method))
(enum_declaration body: (enum_body (enum_body_declarations (method_declaration name: (identifier) @name) @definition.method)))
(annotation_type_element_declaration name: (identifier) @name) @definition.method

(class_declaration body: (class_body (constructor_declaration name: (identifier) @name) @definition.method))
(record_declaration body: (class_body (constructor_declaration name: (identifier) @name) @definition.method))
(enum_declaration body: (enum_body (enum_body_declarations (constructor_declaration name: (identifier) @name) @definition.method)))
(compact_constructor_declaration name: (identifier) @name) @definition.method

; --- fields and constants (record components are fields; interface and annotation fields are constants)
(class_declaration body: (class_body (field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field))
(record_declaration body: (class_body (field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field))
(enum_declaration body: (enum_body (enum_body_declarations (field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field)))
(record_declaration parameters: (formal_parameters (formal_parameter name: (identifier) @name) @definition.field))
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.constant
(enum_constant name: (identifier) @name) @definition.constant

; --- references
; `import a.b.C` and `import static a.b.C.m` name C and m; `import a.b.*` names no symbol.
(import_declaration [(scoped_identifier name: (identifier) @name) (identifier) @name] .) @reference.import
; The classes an import passes through: `import static a.B.member;`, `import a.B.Inner;`, `import static a.B.*;`
; (capitalized segments: lower-case ones are packages).
((import_declaration (scoped_identifier scope: (scoped_identifier name: (identifier) @name))) @reference.import (#match? @name "^[A-Z]"))
((scoped_identifier scope: (scoped_identifier name: (identifier) @name)) @reference.import (#match? @name "^[A-Z]"))
((import_declaration (scoped_identifier name: (identifier) @name) (asterisk)) @reference.import (#match? @name "^[A-Z]"))

; Calls, listed before the type patterns so `new Foo<>(...)` is a call to Foo, not a type use.
(method_invocation name: (identifier) @name) @reference.call
(object_creation_expression
  type: [
    (type_identifier) @name
    (scoped_type_identifier (type_identifier) @name .)
    (generic_type [(type_identifier) @name (scoped_type_identifier (type_identifier) @name .)])
  ]) @reference.call

(method_reference (identifier) @name .) @reference.reference
(field_access field: (identifier) @name) @reference.reference

; Type uses. A qualified type `java.util.List` names its last part only; type parameter declarations (`<T>`) are
; no uses. `generic_type` and `array_type` are matched wherever they occur; the plain and qualified forms in the
; positions that hold types: any `type:` field (fields, parameters, locals, return types, casts, `for`), supertypes,
; type arguments and bounds, `catch`, `throws`, `instanceof`.
(generic_type [(type_identifier) @name (scoped_type_identifier (type_identifier) @name .)]) @reference.type
(array_type element: [(type_identifier) @name (scoped_type_identifier (type_identifier) @name .)]) @reference.type
(_ type: [(type_identifier) @name (scoped_type_identifier (type_identifier) @name .)]) @reference.type
(superclass [(type_identifier) @name (scoped_type_identifier (type_identifier) @name .)]) @reference.type
(type_list [(type_identifier) @name (scoped_type_identifier (type_identifier) @name .)]) @reference.type
(type_arguments [(type_identifier) @name (scoped_type_identifier (type_identifier) @name .)]) @reference.type
(type_bound [(type_identifier) @name (scoped_type_identifier (type_identifier) @name .)]) @reference.type
(catch_type [(type_identifier) @name (scoped_type_identifier (type_identifier) @name .)]) @reference.type
(throws [(type_identifier) @name (scoped_type_identifier (type_identifier) @name .)]) @reference.type
(instanceof_expression right: [(type_identifier) @name (scoped_type_identifier (type_identifier) @name .)]) @reference.type
(class_literal [(type_identifier) @name (scoped_type_identifier (type_identifier) @name .)]) @reference.type
(wildcard [(type_identifier) @name (scoped_type_identifier (type_identifier) @name .)]) @reference.type
(spread_parameter [(type_identifier) @name (scoped_type_identifier (type_identifier) @name .)]) @reference.type
; The outer types of a qualified one: `Outer` in `Outer.Inner`, `A` and `B` in `A.B.C` (capitalized: not packages).
((scoped_type_identifier . (type_identifier) @name) @reference.type (#match? @name "^[A-Z]"))
((scoped_type_identifier . (scoped_type_identifier (type_identifier) @name .)) @reference.type (#match? @name "^[A-Z]"))

; Annotations are type uses too (`@Override`).
(marker_annotation name: [(identifier) @name (scoped_identifier name: (identifier) @name)]) @reference.type
(annotation name: [(identifier) @name (scoped_identifier name: (identifier) @name)]) @reference.type
