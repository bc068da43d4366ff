; Names used as values in JavaScript and TypeScript (appended after each grammar's tags query, so every other
; reference pattern wins first): arguments, assignments, returns, `throw`, `instanceof`, array and object members
; (`{ handler }`), receivers of member chains (`router.use`), decorators. Locals are told apart in code (values.ts)
; from what these patterns mark: function and block scopes, declarations, parameters, destructuring targets, catch
; parameters, loop variables, imports and labels.

((identifier) @name @reference.value (#not-any-of? @name "undefined" "require" "module" "exports" "console" "arguments" "window" "document" "globalThis" "process" "Object" "Array" "Math" "JSON" "Date" "Promise" "Number" "String" "Boolean" "Symbol" "Reflect"))
(shorthand_property_identifier) @name @reference.value

[(function_declaration) (function_expression) (arrow_function) (method_definition) (generator_function_declaration) (generator_function) (statement_block) (for_statement) (for_in_statement) (catch_clause)] @value.scope
(import_statement) @value.skip

(variable_declarator name: (identifier) @value.bind)
(object_pattern (shorthand_property_identifier_pattern) @value.bind)
(object_assignment_pattern left: (shorthand_property_identifier_pattern) @value.bind)
(pair_pattern value: (identifier) @value.bind)
(array_pattern (identifier) @value.bind)
(rest_pattern (identifier) @value.bind)
(assignment_pattern left: (identifier) @value.bind)
(arrow_function parameter: (identifier) @value.bind)
(catch_clause parameter: (identifier) @value.bind)
(for_in_statement left: (identifier) @value.bind)
(function_declaration name: (identifier) @value.bind)
(generator_function_declaration name: (identifier) @value.bind)

; A named function expression's name is its own (`res.location = function location(url) …`); an export alias is a label.
(function_expression name: (identifier) @value.label)
(export_specifier alias: (identifier) @value.label)
