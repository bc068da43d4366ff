; C++ tags. Qualified names: namespaces are module containers (ns.inner.Class#method), `namespace a::b { }` is
; a scope `a` around a module `b`. Out-of-line definitions `void Foo::bar() {}` open a scope named after the
; qualifier (also `Foo<T>::bar`, `Outer::Inner::bar`), so they qualify like the in-class declaration:
; ns.Foo#bar when written inside `namespace ns { }`. (A namespace-qualified free function `void ns::f() {}`
; looks the same and becomes ns#f: the grammar cannot tell a class from a namespace there.)
; In-class member declarations are definitions too (pure virtuals, header-only APIs), so a method declared in
; the class and defined out of line in the same file appears twice, at both places.
; Visibility: the engine reads modifier words in a definition's own text; C++ access sections (`public:`) are
; separate labels, not modifiers of the member, so members get none.

; Namespaces.
(namespace_definition name: (namespace_identifier) @name) @definition.module
(namespace_definition name: (nested_namespace_specifier (namespace_identifier) @name .)) @definition.module
(namespace_definition name: (nested_namespace_specifier (nested_namespace_specifier (namespace_identifier) @name .))) @definition.module
(namespace_definition name: (nested_namespace_specifier . (namespace_identifier) @scope.name)) @scope
(namespace_definition name: (nested_namespace_specifier (nested_namespace_specifier . (namespace_identifier) @scope.name))) @scope

; Types (with a body only: forward declarations and elaborated type uses are not definitions).
(class_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.class
(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.class
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.class
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @definition.enum
(enumerator name: (identifier) @name) @definition.constant
(alias_declaration name: (type_identifier) @name) @definition.type
(type_definition type: (struct_specifier !name body: (field_declaration_list)) declarator: (type_identifier) @name) @definition.class
; Other typedefs; the type list keeps this pattern exclusive of the one above, so that the result does not depend
; on pattern order.
(type_definition
  type: [(primitive_type) (sized_type_specifier) (type_identifier) (qualified_identifier) (template_type)
         (struct_specifier name: (_)) (union_specifier name: (_)) (enum_specifier name: (_)) (decltype)]
  declarator: [
    (type_identifier) @name
    (pointer_declarator declarator: (type_identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))
  ]) @definition.type

; Out-of-line definitions: the qualifier is a scope around the definition (one or two levels).
(function_definition
  declarator: [
    (function_declarator declarator: (qualified_identifier scope: [(namespace_identifier) @scope.name (template_type name: (type_identifier) @scope.name)]))
    (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier scope: [(namespace_identifier) @scope.name (template_type name: (type_identifier) @scope.name)])))
    (reference_declarator (function_declarator declarator: (qualified_identifier scope: [(namespace_identifier) @scope.name (template_type name: (type_identifier) @scope.name)])))
  ]) @scope
(function_definition
  declarator: [
    (function_declarator declarator: (qualified_identifier name: (qualified_identifier scope: [(namespace_identifier) @scope.name (template_type name: (type_identifier) @scope.name)])))
    (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier scope: [(namespace_identifier) @scope.name (template_type name: (type_identifier) @scope.name)]))))
    (reference_declarator (function_declarator declarator: (qualified_identifier name: (qualified_identifier scope: [(namespace_identifier) @scope.name (template_type name: (type_identifier) @scope.name)]))))
  ]) @scope

; Function definitions: free, inline in a class (a method there), out of line (a method in its scope); the
; return type may add `*` or `&`. Names: plain, operator==, ~Destructor.
(function_definition
  declarator: [
    (function_declarator declarator: [
      (identifier) @name (field_identifier) @name (operator_name) @name (destructor_name) @name
      (qualified_identifier name: [(identifier) @name (operator_name) @name (destructor_name) @name
        (qualified_identifier name: [(identifier) @name (operator_name) @name (destructor_name) @name])])])
    (pointer_declarator declarator: (function_declarator declarator: [
      (identifier) @name (field_identifier) @name (operator_name) @name
      (qualified_identifier name: [(identifier) @name (operator_name) @name
        (qualified_identifier name: [(identifier) @name (operator_name) @name])])]))
    (reference_declarator (function_declarator declarator: [
      (identifier) @name (field_identifier) @name (operator_name) @name
      (qualified_identifier name: [(identifier) @name (operator_name) @name
        (qualified_identifier name: [(identifier) @name (operator_name) @name])])]))
  ]) @definition.function

; Member declarations in a class body: methods (also `T* f();`, `T& f();`), constructors and destructors, member
; templates, then data members (`int x;`, `T* p;`, `T& r;`, `int a[4];`, `void (*cb)(int);`).
(field_declaration
  declarator: [
    (function_declarator declarator: [(field_identifier) @name (operator_name) @name (destructor_name) @name])
    (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) @name (operator_name) @name]))
    (reference_declarator (function_declarator declarator: [(field_identifier) @name (operator_name) @name]))
  ]) @definition.method
(field_declaration_list
  (declaration declarator: (function_declarator declarator: [(identifier) @name (destructor_name) @name (operator_name) @name])) @definition.method)
(field_declaration_list
  (template_declaration (declaration declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name])) @definition.method))
(field_declaration
  declarator: [
    (field_identifier) @name
    (pointer_declarator declarator: (field_identifier) @name)
    (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
    (reference_declarator (field_identifier) @name)
    (array_declarator declarator: (field_identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))
  ]) @definition.field

; Namespace-scope variables (a `field` of their namespace or file), `extern` declarations excepted.
((translation_unit
  (declaration . (_) @first declarator: [
    (identifier) @name
    (pointer_declarator declarator: (identifier) @name)
    (init_declarator declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name) (reference_declarator (identifier) @name)])]) @definition.field)
  (#not-eq? @first "extern"))
((declaration_list
  (declaration . (_) @first declarator: [
    (identifier) @name
    (pointer_declarator declarator: (identifier) @name)
    (init_declarator declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name) (reference_declarator (identifier) @name)])]) @definition.field)
  (#not-eq? @first "extern"))

; Macros: object-like with a value are constants, function-like are functions.
(preproc_def name: (identifier) @name value: (preproc_arg)) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.function

; Imports: #include paths as written, `using ns::Name;` (Name), `using namespace ns;` (ns).
(preproc_include path: (system_lib_string) @name) @reference.import
(preproc_include path: (string_literal (string_content) @name)) @reference.import
(using_declaration (identifier) @name) @reference.import
(using_declaration (qualified_identifier name: (identifier) @name)) @reference.import
(using_declaration (qualified_identifier name: (qualified_identifier name: (identifier) @name))) @reference.import

; Calls: f(), obj.f(), p->f(), ns::f(), A::B::f(), f<T>(), ns::f<T>(), obj.template f<T>(), new T(...).
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression field: (field_identifier) @name)) @reference.call
(call_expression function: (field_expression field: (dependent_name (template_method name: (field_identifier) @name)))) @reference.call
(call_expression function: (field_expression field: (template_method name: (field_identifier) @name))) @reference.call
(call_expression function: (template_function name: (identifier) @name)) @reference.call
(call_expression function: (qualified_identifier name: [
  (identifier) @name
  (template_function name: (identifier) @name)
  (qualified_identifier name: [(identifier) @name (template_function name: (identifier) @name)])
])) @reference.call
(new_expression type: [(type_identifier) @name (qualified_identifier name: (type_identifier) @name) (template_type name: (type_identifier) @name)]) @reference.call

; Type uses: a `type:` of any declaration, parameter, type descriptor, new expression, cast...; template names,
; qualified names, base classes, elaborated `struct T`, defaults of template parameters. Template parameter
; declarations (`template <typename T>`) are not uses and are left out; so are typedef and alias names
; (definitions).
(_ type: (type_identifier) @name) @reference.type
(_ default_type: (type_identifier) @name) @reference.type
(template_type name: (type_identifier) @name) @reference.type
(qualified_identifier name: (type_identifier) @name) @reference.type
(base_class_clause (type_identifier) @name) @reference.type
(friend_declaration (type_identifier) @name) @reference.type
(dependent_type (type_identifier) @name) @reference.type
(struct_specifier name: (type_identifier) @name) @reference.type
(class_specifier name: (type_identifier) @name) @reference.type
(union_specifier name: (type_identifier) @name) @reference.type
(enum_specifier name: (type_identifier) @name) @reference.type

; Member accesses that are not calls: obj.x, p->x, this->x.
(field_expression field: (field_identifier) @name) @reference.reference
