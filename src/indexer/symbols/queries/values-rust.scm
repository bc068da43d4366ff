; Names used as values in Rust (appended after rust.scm, so calls, imports, types and fields win first): a function,
; constant or static passed, assigned, returned or put in a struct (`value_parser = SizeFilter::from_string`,
; `.map(parse_size)`, `LIMIT + n`), the last segment of a path used as a value, identifiers inside macro arguments.
; Attribute arguments (`#[arg(value_parser = SizeFilter::from_string)]`) and macro bodies count. Locals are told
; apart in code (values.ts) from what these patterns mark: function, closure, block, loop, `if`/`while` and
; match-arm scopes; `let`, parameter, closure, loop and pattern bindings; item names, enum variants, labels,
; lifetimes and attribute names. A `let` binds from the end of its statement on: `let dirname = dirname(path);` calls
; the function it then shadows.

((identifier) @name @reference.value (#not-any-of? @name "_" "self" "Self" "crate" "super" "Some" "None" "Ok" "Err"))
((scoped_identifier name: (identifier) @name) @reference.value (#not-any-of? @name "new" "default"))

[(function_item) (closure_expression) (block) (match_arm) (for_expression) (if_expression) (while_expression)] @value.scope
(use_declaration) @value.skip

(let_declaration) @value.statement
(let_declaration pattern: (identifier) @value.bind)
(parameter pattern: (identifier) @value.bind)
(closure_parameters (identifier) @value.bind)
(for_expression pattern: (identifier) @value.bind)
; In a pattern a snake_case name binds; a CamelCase or UPPER one is a variant or constant in scope (`File =>` after
; `use FileType::*`, `MAX =>`), a use.
((match_pattern (identifier) @value.bind) (#match? @value.bind "^[a-z_][A-Za-z0-9_]*$"))
((let_condition pattern: (identifier) @value.bind) (#match? @value.bind "^[a-z_][A-Za-z0-9_]*$"))
(([(tuple_pattern (identifier) @value.bind) (tuple_struct_pattern (identifier) @value.bind) (slice_pattern (identifier) @value.bind)
   (ref_pattern (identifier) @value.bind) (mut_pattern (identifier) @value.bind) (reference_pattern (identifier) @value.bind)
   (captured_pattern (identifier) @value.bind) (or_pattern (identifier) @value.bind) (field_pattern (identifier) @value.bind)])
 (#match? @value.bind "^[a-z_][A-Za-z0-9_]*$"))
(field_pattern name: (shorthand_field_identifier) @value.bind)
; Module segments of a path (`std::collections::HashMap`, `fmt::Formatter`, `u64::from`) name no definition a use
; would be of; type and enum segments (`SizeFilter::from_string`, `Movement::Inbound`) stay.
((scoped_identifier path: (identifier) @value.label) (#match? @value.label "^[a-z_][a-z0-9_]*$"))
((scoped_type_identifier path: (identifier) @value.label) (#match? @value.label "^[a-z_][a-z0-9_]*$"))
((_ path: (scoped_identifier name: (identifier) @value.label)) (#match? @value.label "^[a-z_][a-z0-9_]*$"))
(function_item name: (identifier) @value.label)
(function_signature_item name: (identifier) @value.label)
(const_item name: (identifier) @value.label)
(static_item name: (identifier) @value.label)
(mod_item name: (identifier) @value.label)
(enum_variant name: (identifier) @value.label)
(lifetime (identifier) @value.label)
; An attribute's own name (`#[arg(…)]`, `#[derive(…)]`) is no use; what it is given (`value_parser = parse_millis`) is.
(attribute . (identifier) @value.label)
(macro_definition name: (identifier) @value.label)
(label (identifier) @value.label)
(scoped_identifier name: (identifier) @value.member)
