; TypeScript parameters, and the signatures whose parameters are theirs alone (`onCheckout(total: number): void`).
(required_parameter pattern: (identifier) @value.bind)
(optional_parameter pattern: (identifier) @value.bind)
[(method_signature) (function_signature) (call_signature) (construct_signature) (function_type) (abstract_method_signature) (constructor_type)] @value.scope

; Any other type name (`chrome.tabs.Tab[]`, `Map<K, Array<Foo.Bar>>`, mapped and conditional types): the specific
; shapes in typescript.scm come first.
(type_identifier) @name @reference.type
