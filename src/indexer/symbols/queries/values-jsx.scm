; DOM element names (`<div>`) and attribute names are no value uses; components (`<Foo>`) are calls (jsx.scm).
((jsx_opening_element name: (identifier) @value.label) (#match? @value.label "^[a-z]"))
((jsx_closing_element name: (identifier) @value.label) (#match? @value.label "^[a-z]"))
((jsx_self_closing_element name: (identifier) @value.label) (#match? @value.label "^[a-z]"))
