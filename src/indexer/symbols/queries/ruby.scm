; Ruby tags. Qualified names: Module.Class#method (module functions: Module.name). `class Admin::Users` keeps its
; written name, `::` included. `def self.x` and methods inside `class << self` are members like instance methods.
; Matches are taken in the order they complete: where two patterns share a name, the more specific one is listed
; first and both end on the same node, so the specific one wins.

; --- containers ----------------------------------------------------------------------------------------------------

(class name: [(constant) (scope_resolution)] @name) @definition.class
(module name: [(constant) (scope_resolution)] @name) @definition.module

; --- methods (a `def` at the top level is a function) ------------------------------------------------------------

(program (method name: (_) @name) @definition.function)
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name) @definition.method

; --- constants and fields ------------------------------------------------------------------------------------------

(assignment left: (constant) @name) @definition.constant

; Instance variables assigned in initialize, class variables in the class body (names keep their sigil: @items).
(method
  name: (identifier) @_initialize
  body: (body_statement (assignment left: (instance_variable) @name) @definition.field)
  (#eq? @_initialize "initialize"))
(class body: (body_statement (assignment left: (class_variable) @name) @definition.field))

; --- references: imports ---------------------------------------------------------------------------------------------

((call method: (identifier) @_require arguments: (argument_list (string (string_content) @name))) @reference.import
  (#any-of? @_require "require" "require_relative"))

; --- references: types (superclass, mixins) -----------------------------------------------------------------------

(superclass (constant) @name) @reference.type
(superclass (scope_resolution name: (constant) @name)) @reference.type
((call method: (identifier) @_mixin arguments: (argument_list (constant) @name)) @reference.type
  (#any-of? @_mixin "include" "extend" "prepend"))
((call method: (identifier) @_mixin arguments: (argument_list (scope_resolution name: (constant) @name))) @reference.type
  (#any-of? @_mixin "include" "extend" "prepend"))

; --- references: calls ----------------------------------------------------------------------------------------------
; `Foo.new` is a call to Foo. Declarations that are calls in Ruby's grammar (require, include, attr_reader, private…)
; are imports or types above, or no reference at all. A call without receiver and without arguments (`total`) parses
; as a plain identifier, the same as a local variable, so it is not captured.

((call receiver: (constant) @name method: (identifier) @_new) @reference.call (#eq? @_new "new"))
((call receiver: (scope_resolution name: (constant) @name) method: (identifier) @_new) @reference.call (#eq? @_new "new"))
((call method: (identifier) @name) @reference.call
  (#not-any-of? @name "new" "require" "require_relative" "include" "extend" "prepend" "attr_reader" "attr_writer"
    "attr_accessor" "private" "protected" "public" "module_function" "private_constant"))

; --- references: namespace accesses (Pricing::Tax) ---------------------------------------------------------------
; Only where a value is used (receiver, argument, right-hand side), not in `class A::B` names. The receiver pattern
; ends on the method so that `Foo::Bar.new` stays a call (listed above).

(call receiver: (scope_resolution name: (constant) @name) method: (_)) @reference.reference
(argument_list (scope_resolution name: (constant) @name)) @reference.reference
(assignment right: (scope_resolution name: (constant) @name)) @reference.reference
