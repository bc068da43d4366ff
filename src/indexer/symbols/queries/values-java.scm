; Names used as values in Java (appended after java.scm, so calls, imports, types and field accesses win first): a
; constant or field read, passed, assigned or returned (`LIMIT`, `register(handler)`, `@Retry(times = LIMIT)`), a
; class as the receiver of a static call or field (`Pricing.price(…)`, `Defaults.VALUE`, `QuoteService::quote`).
; Locals are told apart in code (values.ts) from what these patterns mark: method, constructor, lambda, block,
; loop and catch scopes; local variable, parameter, lambda, loop, catch and resource bindings; declared names,
; annotation keys and statement labels.

(identifier) @name @reference.value

[(method_declaration) (constructor_declaration) (compact_constructor_declaration) (lambda_expression) (block) (for_statement) (enhanced_for_statement) (catch_clause) (try_with_resources_statement) (switch_block_statement_group) (switch_rule)] @value.scope
[(package_declaration) (import_declaration) (module_declaration)] @value.skip

(local_variable_declaration declarator: (variable_declarator name: (identifier) @value.bind))
(formal_parameter name: (identifier) @value.bind)
(spread_parameter (variable_declarator name: (identifier) @value.bind))
(catch_formal_parameter name: (identifier) @value.bind)
(enhanced_for_statement name: (identifier) @value.bind)
(lambda_expression parameters: (identifier) @value.bind)
(inferred_parameters (identifier) @value.bind)
(resource name: (identifier) @value.bind)
(instanceof_expression name: (identifier) @value.bind)
(field_declaration declarator: (variable_declarator name: (identifier) @value.label))
(constant_declaration declarator: (variable_declarator name: (identifier) @value.label))
(method_declaration name: (identifier) @value.label)
(constructor_declaration name: (identifier) @value.label)
(class_declaration name: (identifier) @value.label)
(interface_declaration name: (identifier) @value.label)
(enum_declaration name: (identifier) @value.label)
(record_declaration name: (identifier) @value.label)
(annotation_type_declaration name: (identifier) @value.label)
(enum_constant name: (identifier) @value.label)
(element_value_pair key: (identifier) @value.label)
(labeled_statement (identifier) @value.label)
(break_statement (identifier) @value.label)
(continue_statement (identifier) @value.label)
(field_access field: (identifier) @value.member)
(method_invocation name: (identifier) @value.member)
(method_reference (identifier) @value.member .)
