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
