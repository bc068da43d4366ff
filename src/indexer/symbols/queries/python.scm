; Python tags. Qualified names come from the file path: package.module.Class#method, package.module.function.
; Only module-level and class-level definitions: functions nested in functions are locals. Visibility follows the
; underscore convention (languages.ts), so `_helper` is private and `__init__` public.
; Matches are taken in the order they complete: where two patterns share a name, the more specific one is listed
; first and both end on the same node, so the specific one wins.

; --- classes -----------------------------------------------------------------------------------------------------

; Decorated definitions are captured whole, so their decorators belong to them.
(decorated_definition definition: (class_definition name: (identifier) @name)) @definition.class
(class_definition name: (identifier) @name) @definition.class

; --- functions and methods -----------------------------------------------------------------------------------------

(module (function_definition name: (identifier) @name) @definition.function)
(module (decorated_definition definition: (function_definition name: (identifier) @name)) @definition.function)

(class_definition body: (block (function_definition name: (identifier) @name) @definition.method))
(class_definition body: (block (decorated_definition definition: (function_definition name: (identifier) @name)) @definition.method))

; --- module level: UPPER_CASE constants and type aliases (other module variables are skipped) --------------------------

(type_alias_statement left: (type (identifier) @name)) @definition.type
(module (expression_statement (assignment left: (identifier) @name type: (type (identifier) @_alias))) @definition.type
  (#eq? @_alias "TypeAlias"))
(module (expression_statement (assignment left: (identifier) @name right: (_))) @definition.constant
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

; --- class level: attributes (UPPER_CASE ones, e.g. enum members, are constants) and self.x in __init__ ---------------

(class_definition body: (block (expression_statement (assignment left: (identifier) @name)) @definition.constant)
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))
(class_definition body: (block (expression_statement (assignment left: (identifier) @name)) @definition.field))

(function_definition
  name: (identifier) @_init
  body: (block (expression_statement (assignment
    left: (attribute object: (identifier) @_self attribute: (identifier) @name)) @definition.field))
  (#eq? @_init "__init__") (#eq? @_self "self"))

; --- references: calls and decorators ------------------------------------------------------------------------------

(call function: (identifier) @name) @reference.call
(call function: (attribute attribute: (identifier) @name)) @reference.call
(decorator (identifier) @name) @reference.call
(decorator (attribute attribute: (identifier) @name)) @reference.call

; --- references: imports (`import a.b` names the dotted module; `from m import x as y` names x) --------------------

(import_statement name: (dotted_name) @name) @reference.import
(import_statement name: (aliased_import name: (dotted_name) @name)) @reference.import
(import_from_statement name: (dotted_name) @name) @reference.import
(import_from_statement name: (aliased_import name: (dotted_name) @name)) @reference.import

; --- references: types (annotations and base classes) ------------------------------------------------------------
; Annotations are expressions, and queries match children, not descendants: the common shapes are listed (`X`,
; `a.X`, `X[Y]` whose parameters are nested `type` nodes again, `a.X[Y]`, `X | Y | Z`, `Callable[[X], Y]`).
; Builtin scalars (str, int, …) are left out, like TypeScript's predefined types.

((type (identifier) @name) @reference.type (#not-any-of? @name "str" "int" "float" "bool" "bytes" "complex" "object"))
(type (attribute attribute: (identifier) @name)) @reference.type
(type (generic_type (identifier) @name)) @reference.type
(type (subscript value: (attribute attribute: (identifier) @name))) @reference.type
((type (subscript subscript: (identifier) @name)) @reference.type (#not-any-of? @name "str" "int" "float" "bool" "bytes" "complex" "object"))
((type (binary_operator (identifier) @name)) @reference.type (#not-any-of? @name "str" "int" "float" "bool" "bytes" "complex" "object"))
((type (binary_operator (binary_operator (identifier) @name))) @reference.type (#not-any-of? @name "str" "int" "float" "bool" "bytes" "complex" "object"))
(type (binary_operator (attribute attribute: (identifier) @name))) @reference.type
(type (binary_operator (subscript value: (attribute attribute: (identifier) @name)))) @reference.type
((type (binary_operator (subscript subscript: (identifier) @name))) @reference.type (#not-any-of? @name "str" "int" "float" "bool" "bytes" "complex" "object"))
((type (list (identifier) @name)) @reference.type (#not-any-of? @name "str" "int" "float" "bool" "bytes" "complex" "object"))
(class_definition superclasses: (argument_list (identifier) @name)) @reference.type
(class_definition superclasses: (argument_list (attribute attribute: (identifier) @name))) @reference.type
(class_definition superclasses: (argument_list (subscript value: (identifier) @name))) @reference.type

; --- references: attribute accesses (after calls, so `a.b()` stays a call) -----------------------------------------

(attribute attribute: (identifier) @name) @reference.reference

; --- references: names used as values (arguments, assignments, returns, raise, except, isinstance tuples, receivers
; of attribute chains: `run_command.params`). The most general pattern, so it comes last; locals, labels and import
; names are told apart in code (values.ts).

; Builtin types and the receiver names are left out: no repository defines them, and they are in every file.
((identifier) @name @reference.value
  (#not-any-of? @name "str" "int" "float" "bool" "bytes" "complex" "object" "list" "dict" "set" "tuple" "type" "self" "cls" "__name__" "__file__"))

; What tells a value use from a local: function scopes (comprehensions are scopes of their own), imports, and
; `global`/`nonlocal` declarations.
[(function_definition) (lambda) (list_comprehension) (set_comprehension) (dictionary_comprehension) (generator_expression)] @value.scope
[(import_statement) (import_from_statement) (future_import_statement)] @value.skip
[(global_statement) (nonlocal_statement)] @value.global

; Binding positions: inside a function, a name bound here is its local (assignment and loop targets, with/except
; `as` targets, walrus, parameters, nested definitions, destructuring).
(assignment left: (identifier) @value.bind)
(augmented_assignment left: (identifier) @value.bind)
(for_statement left: (identifier) @value.bind)
(for_in_clause left: (identifier) @value.bind)
; Destructuring targets only ever bind (`a, (b, c) = …`, `for k, v in …`, `case [x, y]:`).
[(pattern_list (identifier) @value.bind) (tuple_pattern (identifier) @value.bind) (list_pattern (identifier) @value.bind)]
(named_expression name: (identifier) @value.bind)
(as_pattern alias: (as_pattern_target (identifier) @value.bind))
(as_pattern alias: (as_pattern_target [(tuple (identifier) @value.bind) (list (identifier) @value.bind) (pattern_list (identifier) @value.bind)]))
(parameters (identifier) @value.bind)
(lambda_parameters (identifier) @value.bind)
(default_parameter name: (identifier) @value.bind)
(typed_parameter (identifier) @value.bind)
(typed_default_parameter name: (identifier) @value.bind)
(list_splat_pattern (identifier) @value.bind)
(dictionary_splat_pattern (identifier) @value.bind)
(function_definition name: (identifier) @value.bind)
(class_definition name: (identifier) @value.bind)
(keyword_argument name: (identifier) @value.label)
; Member names (`a.b`, `a.b()`): another pattern's references, never a local's use.
(attribute attribute: (identifier) @value.member)
