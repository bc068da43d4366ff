; JavaScript parameters (TypeScript wraps them in required_parameter / optional_parameter: values-typescript.scm).
(formal_parameters (identifier) @value.bind)
