; JSX component uses, appended to the TypeScript query for TSX (the TypeScript grammar has no JSX nodes).
; Capitalised tags are components (calls); lower-case tags are DOM elements and are left out.

((jsx_opening_element name: (identifier) @name) @reference.call (#match? @name "^[A-Z]"))
((jsx_self_closing_element name: (identifier) @name) @reference.call (#match? @name "^[A-Z]"))
(jsx_opening_element name: (member_expression property: (property_identifier) @name)) @reference.call
(jsx_self_closing_element name: (member_expression property: (property_identifier) @name)) @reference.call
