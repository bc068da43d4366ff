; Names used as values in Go (appended after go.scm, so calls, imports, types and selectors win first): a function,
; constant or variable passed, assigned, returned or put in a literal (`register(parse)`, `Limit + n`,
; `return ErrBad`), and package names as selector receivers (`strings.ToUpper`). Locals are told apart in code
; (values.ts) from what these patterns mark: function, literal, block and statement scopes; `:=`, `var`, parameter,
; range and type-switch bindings; declared names, struct literal keys and labels. A `:=` or `var` binds from the end
; of its statement on (`cfg := cfg.With(x)` reads the outer one).

((identifier) @name @reference.value
  (#not-any-of? @name "_" "nil" "true" "false" "iota" "append" "cap" "clear" "close" "complex" "copy" "delete" "imag" "len" "make" "max" "min" "new" "panic" "print" "println" "real" "recover"))

[(function_declaration) (method_declaration) (func_literal) (method_elem) (function_type) (block) (for_statement) (if_statement) (expression_switch_statement) (type_switch_statement) (select_statement) (communication_case) (expression_case) (type_case) (default_case)] @value.scope
(import_declaration) @value.skip

[(short_var_declaration) (var_declaration)] @value.statement
(short_var_declaration left: (expression_list (identifier) @value.bind))
(var_spec name: (identifier) @value.bind)
(const_spec name: (identifier) @value.bind)
(parameter_declaration name: (identifier) @value.bind)
(variadic_parameter_declaration name: (identifier) @value.bind)
(range_clause left: (expression_list (identifier) @value.bind))
(type_switch_statement alias: (expression_list (identifier) @value.bind))
(receive_statement left: (expression_list (identifier) @value.bind))
(function_declaration name: (identifier) @value.label)
(keyed_element . (literal_element (identifier) @value.label))
(labeled_statement label: (label_name) @value.label)
