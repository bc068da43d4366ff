; Rust tags. Qualified names: `mod a { }` is a module container (a.Item), `impl Type { }` / `impl Trait for Type { }`
; is a scope named after the implementing type (Type#method), trait items are Trait#method, struct fields
; Struct#field, enum variants Enum#Variant. Visibility: `pub` (also `pub(crate)`, `pub(super)`) is public, else none.

; Containers and types.
(mod_item name: (identifier) @name) @definition.module
(struct_item name: (type_identifier) @name) @definition.class
(union_item name: (type_identifier) @name) @definition.class
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.interface
(type_item name: (type_identifier) @name) @definition.type

; impl blocks qualify their functions with the implementing type (generic arguments and paths dropped).
(impl_item
  type: [
    (type_identifier) @scope.name
    (generic_type type: (type_identifier) @scope.name)
    (scoped_type_identifier name: (type_identifier) @scope.name)
    (generic_type type: (scoped_type_identifier name: (type_identifier) @scope.name))
  ]) @scope

; Members: fields of structs and unions (not of struct-like enum variants), enum variants.
(struct_item body: (field_declaration_list (field_declaration name: (field_identifier) @name) @definition.field))
(union_item body: (field_declaration_list (field_declaration name: (field_identifier) @name) @definition.field))
(enum_variant name: (identifier) @name) @definition.constant

; Functions; inside a trait or an impl the engine makes them methods. Signatures without a body: trait methods
; and `extern` declarations.
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(macro_definition name: (identifier) @name) @definition.function

(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.constant

; `use` leaf names: use a::B; use a::{B, c::D}; use a::B as C (records B); use a::{self} (records a); use a::b::*
; (records b).
(use_declaration argument: (identifier) @name) @reference.import
(use_declaration argument: (scoped_identifier name: (identifier) @name)) @reference.import
(use_declaration argument: (use_as_clause path: [(identifier) @name (scoped_identifier name: (identifier) @name)])) @reference.import
(use_declaration argument: (use_wildcard [(identifier) @name (scoped_identifier name: (identifier) @name)])) @reference.import
(use_list (identifier) @name) @reference.import
(use_list (scoped_identifier name: (identifier) @name)) @reference.import
(use_list (use_as_clause path: [(identifier) @name (scoped_identifier name: (identifier) @name)])) @reference.import
(scoped_use_list path: [(identifier) @name (scoped_identifier name: (identifier) @name)] list: (use_list (self))) @reference.import

; Calls: f(), a::f(), v.m(), f::<T>(), v.m::<T>(), and macro invocations m!(...).
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (scoped_identifier name: (identifier) @name)) @reference.call
(call_expression function: (field_expression field: (field_identifier) @name)) @reference.call
(call_expression function: (generic_function function: [
  (identifier) @name
  (scoped_identifier name: (identifier) @name)
  (field_expression field: (field_identifier) @name)
])) @reference.call
(macro_invocation macro: [(identifier) @name (scoped_identifier name: (identifier) @name)]) @reference.call

; Type uses: the type of a parameter, field, let, const, cast...; return types; generic arguments and bounds;
; path tails (a::B); impl targets and traits; struct literals. Generic parameter declarations (`<T: Clone>`) and
; the names of type definitions are not uses and are left out, and so is `Self`. (Primitives are another node.)
((_ type: (type_identifier) @name) @reference.type (#not-eq? @name "Self"))
((_ return_type: (type_identifier) @name) @reference.type (#not-eq? @name "Self"))
(_ trait: (type_identifier) @name) @reference.type
(_ element: (type_identifier) @name) @reference.type
(_ default_type: (type_identifier) @name) @reference.type
(where_predicate left: (type_identifier) @name) @reference.type
(scoped_type_identifier name: (type_identifier) @name) @reference.type
((struct_expression name: (type_identifier) @name) @reference.type (#not-eq? @name "Self"))
(type_arguments (type_identifier) @name) @reference.type
(trait_bounds (type_identifier) @name) @reference.type
(tuple_type (type_identifier) @name) @reference.type
(removed_trait_bound (type_identifier) @name) @reference.type
(bounded_type (type_identifier) @name) @reference.type

; Field accesses that are not calls: s.field (tuple indices are left out).
(field_expression field: (field_identifier) @name) @reference.reference
