; Go tags. Qualified names: pkg.Type, pkg.Type#Method (receiver type via @container, without `*` or type
; arguments), pkg.Func. Visibility comes from capitalization (engine). Only package-level declarations are
; definitions: locals, parameters and anonymous struct fields inside functions are not.

(package_clause (package_identifier) @package)

; Types. A lone `type X ...` declaration is the definition node (so the signature keeps the `type` keyword); a
; spec inside a grouped `type ( ... )` is its own definition node. The patterns never overlap, so the result does
; not depend on pattern order: grouped ones require the "(" token, and the struct / interface / other-type cases
; are told apart by listing the other type forms explicitly.
(type_declaration . (type_spec name: (type_identifier) @name type: (struct_type)) .) @definition.class
(type_declaration . (type_spec name: (type_identifier) @name type: (interface_type)) .) @definition.interface
(type_declaration . (type_spec name: (type_identifier) @name type: [(type_identifier) (generic_type) (qualified_type) (pointer_type) (array_type) (slice_type) (map_type) (channel_type) (function_type) (negated_type) (parenthesized_type)]) .) @definition.type
(type_declaration . (type_alias name: (type_identifier) @name) .) @definition.type
(type_declaration "(" (type_spec name: (type_identifier) @name type: (struct_type)) @definition.class)
(type_declaration "(" (type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface)
(type_declaration "(" (type_spec name: (type_identifier) @name type: [(type_identifier) (generic_type) (qualified_type) (pointer_type) (array_type) (slice_type) (map_type) (channel_type) (function_type) (negated_type) (parenthesized_type)]) @definition.type)
(type_declaration "(" (type_alias name: (type_identifier) @name) @definition.type)

; Members of named struct and interface types.
(type_spec type: (struct_type (field_declaration_list (field_declaration name: (field_identifier) @name) @definition.field)))
(type_spec type: (interface_type (method_elem name: (field_identifier) @name) @definition.method))

; Functions and methods. The receiver's base type names the container: T, *T, T[P], *T[P].
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @container
        (pointer_type (type_identifier) @container)
        (generic_type type: (type_identifier) @container)
        (pointer_type (generic_type type: (type_identifier) @container))
      ]))
  name: (field_identifier) @name) @definition.method
(function_declaration name: (identifier) @name) @definition.function

; Package-level constants and variables (a variable is a `field` of its package: the closest kind there is);
; lone and grouped declarations as for types.
(source_file (const_declaration . (const_spec name: (identifier) @name) .) @definition.constant)
(source_file (const_declaration "(" (const_spec name: (identifier) @name) @definition.constant))
(source_file (var_declaration (var_spec name: (identifier) @name)) @definition.field)
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @definition.field)))

; Imports by path ("net/http"); the alias of `name "path"` is local to the file and not recorded.
(import_spec path: (interpreted_string_literal (interpreted_string_literal_content) @name)) @reference.import

; Calls: f(x), pkg.F(x), v.M(x). Builtins are left out to keep the index small.
(call_expression
  function: (identifier) @name
  (#not-any-of? @name "append" "cap" "clear" "close" "complex" "copy" "delete" "imag" "len" "make" "max" "min" "new" "panic" "print" "println" "real" "recover")) @reference.call
(call_expression function: (selector_expression field: (field_identifier) @name)) @reference.call

; Type uses anywhere (Go has type_identifier only in type positions), less the predeclared types.
((type_identifier) @name @reference.type
  (#not-any-of? @name "any" "bool" "byte" "comparable" "complex64" "complex128" "error" "float32" "float64" "int" "int8" "int16" "int32" "int64" "rune" "string" "uint" "uint8" "uint16" "uint32" "uint64" "uintptr"))

; Field and package-member accesses that are not calls: s.field, pkg.Var.
(selector_expression field: (field_identifier) @name) @reference.reference
