; C tags, kept lean for very large trees (the Linux kernel). Names are top-level (static functions too); struct
; and union members are Struct#field, enumerators Enum#CONSTANT (anonymous enum: CONSTANT). Prototypes, extern
; declarations, locals and parameters are not definitions. No visibility.

; Functions: name directly in the declarator, or behind one or two `*` of the return type.
(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @definition.function
; Recovery for `static int __init foo(void)`: the grammar reads `static int __init;` plus a function whose type is
; `foo` and whose declarator is `(void)`; and for `SYSCALL_DEFINE0(getpid) { }`, read as a function of type
; SYSCALL_DEFINE0 with declarator `(getpid)`. A function_definition never has a bare parenthesized declarator
; otherwise. An all-caps "type" is the macro, and the name is inside the parentheses.
((function_definition type: (type_identifier) @name declarator: (parenthesized_declarator)) @definition.function
  (#not-match? @name "^[A-Z][A-Z0-9_]*$"))
((function_definition type: (type_identifier) @_macro declarator: (parenthesized_declarator (identifier) @name)) @definition.function
  (#match? @_macro "^[A-Z][A-Z0-9_]*$"))

; Macros: object-like with a value are constants (include guards and empty flags are not), function-like are functions.
(preproc_def name: (identifier) @name value: (preproc_arg)) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.function

; Types: only definitions with a body; `typedef struct { } name` names the anonymous struct.
(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.class
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.class
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @definition.enum
(type_definition type: (struct_specifier !name body: (field_declaration_list)) declarator: (type_identifier) @name) @definition.class
(type_definition type: (union_specifier !name body: (field_declaration_list)) declarator: (type_identifier) @name) @definition.class
(type_definition type: (enum_specifier !name body: (enumerator_list)) declarator: (type_identifier) @name) @definition.enum
; Recovery for `struct __packed name { ... }`: read as a function of type `struct __packed` named `name` (its
; members are lost: they parse as local declarations).
((function_definition type: (struct_specifier name: (type_identifier) @_attr) declarator: (identifier) @name) @definition.class
  (#match? @_attr "^__"))
; Other typedefs, kept mutually exclusive with the anonymous struct/union/enum ones above so that the result does
; not depend on pattern order. Declarator: name, *name, name[N], (*name)(args), name(args).
(type_definition
  type: [(primitive_type) (sized_type_specifier) (type_identifier) (macro_type_specifier)
         (struct_specifier name: (_)) (union_specifier name: (_)) (enum_specifier name: (_))]
  declarator: [
    (type_identifier) @name
    (pointer_declarator declarator: (type_identifier) @name)
    (array_declarator declarator: (type_identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))
    (function_declarator declarator: (type_identifier) @name)
  ]) @definition.type

; Members. Declarator: name, *name, **name, name[N], *name[N], (*name)(args).
(field_declaration
  declarator: [
    (field_identifier) @name
    (pointer_declarator declarator: (field_identifier) @name)
    (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
    (array_declarator declarator: (field_identifier) @name)
    (pointer_declarator declarator: (array_declarator declarator: (field_identifier) @name))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))
  ]) @definition.field
(enumerator name: (identifier) @name) @definition.constant

; File-scope variables (a variable is a `field` of its file: the closest kind there is), at top level or one
; #if/#ifdef/#else level down (never locals: patterns are rooted at translation_unit), `extern` declarations
; excepted. Names starting with `__` are left out: they are attribute macros misread as declarators (see above).
; Written as separate rooted patterns: one alternation over the five wrappers costs far more matching time.
((translation_unit (declaration . (_) @first declarator: [
    (identifier) @name
    (pointer_declarator declarator: (identifier) @name)
    (array_declarator declarator: (identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
    (init_declarator declarator: [
      (identifier) @name
      (pointer_declarator declarator: (identifier) @name)
      (array_declarator declarator: (identifier) @name)
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))])]) @definition.field)
  (#not-eq? @first "extern")
  (#not-match? @name "^__"))
((translation_unit (preproc_ifdef (declaration . (_) @first declarator: [
    (identifier) @name
    (pointer_declarator declarator: (identifier) @name)
    (array_declarator declarator: (identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
    (init_declarator declarator: [
      (identifier) @name
      (pointer_declarator declarator: (identifier) @name)
      (array_declarator declarator: (identifier) @name)
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))])]) @definition.field))
  (#not-eq? @first "extern")
  (#not-match? @name "^__"))
((translation_unit (preproc_if (declaration . (_) @first declarator: [
    (identifier) @name
    (pointer_declarator declarator: (identifier) @name)
    (array_declarator declarator: (identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
    (init_declarator declarator: [
      (identifier) @name
      (pointer_declarator declarator: (identifier) @name)
      (array_declarator declarator: (identifier) @name)
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))])]) @definition.field))
  (#not-eq? @first "extern")
  (#not-match? @name "^__"))
((translation_unit (preproc_ifdef alternative: (preproc_else (declaration . (_) @first declarator: [
    (identifier) @name
    (pointer_declarator declarator: (identifier) @name)
    (array_declarator declarator: (identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
    (init_declarator declarator: [
      (identifier) @name
      (pointer_declarator declarator: (identifier) @name)
      (array_declarator declarator: (identifier) @name)
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))])]) @definition.field)))
  (#not-eq? @first "extern")
  (#not-match? @name "^__"))
((translation_unit (preproc_if alternative: (preproc_else (declaration . (_) @first declarator: [
    (identifier) @name
    (pointer_declarator declarator: (identifier) @name)
    (array_declarator declarator: (identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
    (init_declarator declarator: [
      (identifier) @name
      (pointer_declarator declarator: (identifier) @name)
      (array_declarator declarator: (identifier) @name)
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))])]) @definition.field)))
  (#not-eq? @first "extern")
  (#not-match? @name "^__"))

; `static DEFINE_MUTEX(name);`, `static LIST_HEAD(name);`: a macro that defines the variable in parentheses.
(translation_unit (declaration type: (type_identifier) declarator: (parenthesized_declarator (identifier) @name)) @definition.field)
(translation_unit (preproc_ifdef (declaration type: (type_identifier) declarator: (parenthesized_declarator (identifier) @name)) @definition.field))

; Function-defining macros: `SYSCALL_DEFINE3(open, ...) { ... }`, `BPF_CALL_2(name, ...) { ... }` parse as a call
; statement followed by a block; the first argument names the function. The definition covers the header line
; only (the block is a sibling), so references in the body have no enclosing symbol.
((translation_unit
  (expression_statement (call_expression function: (identifier) @_macro arguments: (argument_list . (identifier) @name))) @definition.function
  .
  (compound_statement))
  (#match? @_macro "^[A-Z][A-Z0-9_]*$"))
((translation_unit
  (preproc_ifdef
    (expression_statement (call_expression function: (identifier) @_macro arguments: (argument_list . (identifier) @name))) @definition.function
    .
    (compound_statement)))
  (#match? @_macro "^[A-Z][A-Z0-9_]*$"))

; Includes: the path as written ("<linux/slab.h>" keeps its brackets, "local.h" does not have quotes).
(preproc_include path: (system_lib_string) @name) @reference.import
(preproc_include path: (string_literal (string_content) @name)) @reference.import

; Calls: f(x), and through function pointers ops->open(x), s.cb(x) (named after the member).
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression field: (field_identifier) @name)) @reference.call

; Type uses in signatures and members only (not in locals, casts or sizeof): T, struct T, union T, enum T.
(parameter_declaration type: [(type_identifier) @name (struct_specifier name: (type_identifier) @name) (union_specifier name: (type_identifier) @name) (enum_specifier name: (type_identifier) @name)]) @reference.type
; (the return type of a definition can be an attribute macro misread as its type: `noinline int f()`).
((function_definition
   type: [(type_identifier) @name (struct_specifier name: (type_identifier) @name) (union_specifier name: (type_identifier) @name) (enum_specifier name: (type_identifier) @name)]
   declarator: [(function_declarator) (pointer_declarator)]) @reference.type
  (#not-match? @name "^(__|noinline$|notrace$)"))
(field_declaration type: [(type_identifier) @name (struct_specifier name: (type_identifier) @name) (union_specifier name: (type_identifier) @name) (enum_specifier name: (type_identifier) @name)]) @reference.type

; Member accesses p->x, s.x, and designated initializers { .open = rb_open } (the member and the function wired in).
(field_expression field: (field_identifier) @name) @reference.reference
(initializer_pair designator: (field_designator (field_identifier) @name)) @reference.reference
(initializer_pair value: (identifier) @name) @reference.reference
