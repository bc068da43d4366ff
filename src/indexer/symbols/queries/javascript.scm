; JavaScript tags (ES modules and CommonJS, JSX included). Qualified names: Class#member, top-level functionName.
; Exported declarations are captured on their export_statement so signatures keep `export`.
; Matches are taken in the order they complete: where two patterns share a name, the more specific one is listed
; first and both end on the same node (the value), so the specific one wins.

; --- classes -----------------------------------------------------------------------------------------------------

(export_statement declaration: (class_declaration name: (identifier) @name)) @definition.class
(class_declaration name: (identifier) @name) @definition.class
(program (lexical_declaration (variable_declarator name: (identifier) @name value: (class))) @definition.class)
(export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name value: (class)))) @definition.class

; --- functions: top level only (nested functions are locals) ---------------------------------------------------

(export_statement declaration: [
  (function_declaration name: (identifier) @name)
  (generator_function_declaration name: (identifier) @name)
]) @definition.function

(program [
  (function_declaration name: (identifier) @name)
  (generator_function_declaration name: (identifier) @name)
] @definition.function)

(export_statement declaration: [
  (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]))
  (variable_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]))
]) @definition.function

(program [
  (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]))
  (variable_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]))
] @definition.function)

; CommonJS: exports.name = function … / module.exports.name = …
(program (expression_statement (assignment_expression
  left: (member_expression object: (identifier) @_exports property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)])) @definition.function
  (#eq? @_exports "exports"))
(program (expression_statement (assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
    property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)])) @definition.function
  (#eq? @_module "module") (#eq? @_exports "exports"))

; Prototype methods: Store.prototype.describe = function … → Store#describe
(program (expression_statement (assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @container property: (property_identifier) @_prototype)
    property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)])) @definition.method
  (#eq? @_prototype "prototype"))

; Members assigned on an object at the top level (Express's `res.location = function location(url) …`), chains
; included (`req.get = req.header = function header(name) …` defines both), and members a helper defines with a
; function value (`defineGetter(req, 'hostname', function hostname() …)`) → res#location, req#hostname.
(program (expression_statement (assignment_expression
  left: (member_expression object: (identifier) @container property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)])) @definition.method
  (#not-any-of? @container "exports" "module"))
(program (expression_statement (assignment_expression
  left: (member_expression object: (identifier) @container property: (property_identifier) @name)
  right: (assignment_expression right: [(arrow_function) (function_expression) (generator_function)]))) @definition.method
  (#not-any-of? @container "exports" "module"))
(program (expression_statement (assignment_expression
  right: (assignment_expression
    left: (member_expression object: (identifier) @container property: (property_identifier) @name)
    right: [(arrow_function) (function_expression) (generator_function)]) @definition.method))
  (#not-any-of? @container "exports" "module"))
(program (expression_statement (call_expression
  arguments: (arguments . (identifier) @container . (string (string_fragment) @name) . [(arrow_function) (function_expression)] @definition.method .))))

; --- module-level constants (let/var values are skipped; `require(…)` values are imports, below) -------------------

((export_statement declaration: (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name value: (_) @_value))) @definition.constant
  (#not-match? @_value "^require\\s*\\("))
(program (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name value: (_) @_value)) @definition.constant
  (#not-match? @_value "^require\\s*\\("))

; --- class members -----------------------------------------------------------------------------------------------

(class_body (method_definition name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name) @definition.method)
(class_body (field_definition property: [(property_identifier) (private_property_identifier)] @name value: [(arrow_function) (function_expression)]) @definition.method)
(class_body (field_definition property: [(property_identifier) (private_property_identifier)] @name value: (_)) @definition.field)
(class_body (field_definition property: [(property_identifier) (private_property_identifier)] @name !value) @definition.field)

; Fields assigned in the constructor: constructor(…) { this.name = … }
(method_definition
  name: (property_identifier) @_constructor
  body: (statement_block (expression_statement
    (assignment_expression left: (member_expression object: (this) property: (property_identifier) @name)) @definition.field))
  (#eq? @_constructor "constructor"))

; --- references: calls (JSX components count as calls) -------------------------------------------------------------

((call_expression function: (identifier) @name) @reference.call (#not-eq? @name "require"))
(call_expression function: (member_expression property: [(property_identifier) (private_property_identifier)] @name)) @reference.call
(new_expression constructor: (identifier) @name) @reference.call
(new_expression constructor: (member_expression property: (property_identifier) @name)) @reference.call

((jsx_opening_element name: (identifier) @name) @reference.call (#match? @name "^[A-Z]"))
((jsx_self_closing_element name: (identifier) @name) @reference.call (#match? @name "^[A-Z]"))
(jsx_opening_element name: (member_expression property: (property_identifier) @name)) @reference.call
(jsx_self_closing_element name: (member_expression property: (property_identifier) @name)) @reference.call

; --- references: imports (the imported name, not the local alias) ---------------------------------------------------

(import_specifier name: (identifier) @name) @reference.import
(import_clause (identifier) @name) @reference.import
(namespace_import (identifier) @name) @reference.import
(export_statement (export_clause (export_specifier name: (identifier) @name)) source: (string)) @reference.import

; const fs = require("fs"); const { readFile, join: pathJoin } = require("…"); const log = require("debug")("app");
; const x = require("…").x
(variable_declarator
  name: (identifier) @name
  value: (call_expression function: (identifier) @_require)
  (#eq? @_require "require")) @reference.import
(variable_declarator
  name: (object_pattern [
    (shorthand_property_identifier_pattern) @name
    (pair_pattern key: (property_identifier) @name)
  ])
  value: (call_expression function: (identifier) @_require)
  (#eq? @_require "require")) @reference.import
(variable_declarator
  name: (identifier) @name
  value: (call_expression function: (call_expression function: (identifier) @_require))
  (#eq? @_require "require")) @reference.import
(variable_declarator
  value: (member_expression
    object: (call_expression function: (identifier) @_require)
    property: (property_identifier) @name)
  (#eq? @_require "require")) @reference.import

; --- references: types (extends) -----------------------------------------------------------------------------------

(class_heritage (identifier) @name) @reference.type
(class_heritage (member_expression property: (property_identifier) @name)) @reference.type

; --- references: member accesses (after calls, so `a.b()` stays a call) --------------------------------------------

((member_expression property: [(property_identifier) (private_property_identifier)] @name) @reference.reference
  (#not-any-of? @name "prototype" "exports"))
