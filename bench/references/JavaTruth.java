/*
 * Reference truth for Java from the JDK compiler's own parser (javax.tools + com.sun.source Tree API; parse only, no
 * attribution: a repository's dependencies are not on a classpath). Same shape as python_truth.py and ts-truth.ts:
 *
 *   java bench/references/JavaTruth.java ROOT < paths     (repository-relative .java paths, one a line)
 *   {"defs": {name: [[path, line], ...]}, "uses": {name: [[path, line], ...]}, "unparsed": [path, ...]}
 *
 * - defs: type declarations at every level (class, interface, enum, record, annotation type; local classes too),
 *   constants — fields declared `static final`, every field of an interface or annotation type (implicitly so) —
 *   and enum constants. Line: the line of the declaration's name token.
 * - uses: every simple name that can name such a definition: an identifier in an expression or a type (variable and
 *   return types, extends/implements, throws, type arguments, wildcard and type-parameter bounds, varargs, casts,
 *   instanceof, `new Name(…)`, array types, `Name.class`, `case NAME:`), the member name of `a.NAME` /
 *   `Outer.Inner` (line of the member name token, from the end of the member select), the names in imports
 *   (`import a.b.Outer.Inner;` counts Outer and Inner, `import static a.b.C.NAME;` C and NAME, `import static
 *   a.b.C.*;` C), annotations (`@Name`), the qualifier of `Name::method`.
 *   Not uses:
 *   - a declaration's own name; a method name (`NAME()`, `a.NAME()`, `X::NAME`: methods are not measured); an
 *     annotation argument's key (`@Retry(times = LIMIT)`: `times` is not, `LIMIT` is); labels; `.class`, `*`;
 *   - package names: the package declaration, module directives (`exports a.b.std;`), and in an import or a
 *     qualified name in a type-only position the leading names that begin in lower case, by Java's naming convention
 *     (`com.acme.ser.std.Writer`: `com` … `std` are packages, `Writer` is counted);
 *   - in a type-only position (a type, a `.class` qualifier, a non-static import, a static import's qualifiers) a
 *     name defined only as a constant: `String.class`, `List<String>`, `import java.net.URI;` are no uses of an enum
 *     constant `String` or a field `URI` (a name defined as a type keeps them);
 *   - in a type-only position, a name inside the scope of a type parameter of that name (`<BOGUS> BOGUS f()`);
 *   - in an expression, a simple name inside the scope of a local of that name — a local variable, parameter, lambda,
 *     catch, for, resource or pattern binding (scopes: method, constructor and lambda bodies, blocks, for loops,
 *     catch clauses, try-with-resources, switch bodies), which shadows the constant from its declaration on. A local
 *     does not hide a type in a type-only position (`Foo Foo; Foo x;`).
 *   Nodes the parser makes up (an enum constant's implicit `new E()`) are not in the text and are not counted: a use
 *   is recorded only where the source spells the name at its position. A tree the parser shares between declarators
 *   (`JsonSerializer<Object> a, b;` has one type tree) is counted once.
 * - unparsed: files with an ERROR diagnostic from the parser (or not readable as UTF-8).
 */
import com.sun.source.tree.*;
import com.sun.source.util.*;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import javax.lang.model.element.Modifier;
import javax.tools.*;

public class JavaTruth {
  static final Map<String, List<String>> defs = new TreeMap<>();
  static final Map<String, List<String>> uses = new TreeMap<>();
  /** Occurrences where only a type can stand: no use of a constant. */
  static final Map<String, List<String>> typeUses = new TreeMap<>();
  static final Set<String> typeDefs = new HashSet<>();
  static final Set<String> constantDefs = new HashSet<>();
  static final Set<String> unparsed = new TreeSet<>();

  static void add(Map<String, List<String>> table, String name, String path, long line) {
    table.computeIfAbsent(name, k -> new ArrayList<>()).add("[" + quote(path) + "," + line + "]");
  }

  static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }

  static boolean identPart(char c) {
    return Character.isJavaIdentifierPart(c);
  }

  /** Whether `text` spells `name` as a whole word at `at`. */
  static boolean spells(String text, int at, String name) {
    if (at < 0 || at + name.length() > text.length() || !text.startsWith(name, at)) return false;
    return (at == 0 || !identPart(text.charAt(at - 1))) && (at + name.length() == text.length() || !identPart(text.charAt(at + name.length())));
  }

  /** The first whole-word occurrence of `name` at or after `from`, or -1. */
  static int forward(String text, int from, String name) {
    for (int i = text.indexOf(name, Math.max(0, from)); i >= 0; i = text.indexOf(name, i + 1)) if (spells(text, i, name)) return i;
    return -1;
  }

  /** The last whole-word occurrence of `name` before `before`, or -1. */
  static int backward(String text, int before, String name) {
    for (int i = text.lastIndexOf(name, before - name.length()); i >= 0; i = text.lastIndexOf(name, i - 1)) if (spells(text, i, name)) return i;
    return -1;
  }

  static class Scanner extends TreePathScanner<Void, Void> {
    final String path;
    final String text;
    final CompilationUnitTree cu;
    final SourcePositions pos;
    /** Local names by scope, innermost first; a type parameter is kept as `<Name`. */
    final Deque<Set<String>> scopes = new ArrayDeque<>();
    /** Trees already scanned: `int A = 1, B = 2;` is two variables sharing one type and one modifiers tree. */
    final Set<Tree> seen = Collections.newSetFromMap(new IdentityHashMap<>());

    Scanner(String path, String text, CompilationUnitTree cu, SourcePositions pos) {
      this.path = path;
      this.text = text;
      this.cu = cu;
      this.pos = pos;
    }

    long line(long offset) {
      return cu.getLineMap().getLineNumber(offset);
    }

    long start(Tree t) {
      return pos.getStartPosition(cu, t);
    }

    long end(Tree t) {
      return pos.getEndPosition(cu, t);
    }

    boolean local(String name) {
      for (Set<String> s : scopes) if (s.contains(name)) return true;
      return false;
    }

    @Override public Void scan(Tree t, Void v) {
      return t == null || !seen.add(t) ? null : super.scan(t, v);
    }

    Void scoped(Tree t) {
      scopes.push(new HashSet<>());
      List<? extends TypeParameterTree> params = t instanceof MethodTree ? ((MethodTree) t).getTypeParameters() : t instanceof ClassTree ? ((ClassTree) t).getTypeParameters() : List.of();
      for (TypeParameterTree tp : params) scopes.peek().add("<" + tp.getName());
      try {
        return dispatch(t);
      } finally {
        scopes.pop();
      }
    }

    Void dispatch(Tree t) {
      switch (t.getKind()) {
        case METHOD: return super.visitMethod((MethodTree) t, null);
        case CLASS: case INTERFACE: case ENUM: case RECORD: case ANNOTATION_TYPE: return super.visitClass((ClassTree) t, null);
        case LAMBDA_EXPRESSION: return super.visitLambdaExpression((LambdaExpressionTree) t, null);
        case BLOCK: return super.visitBlock((BlockTree) t, null);
        case FOR_LOOP: return super.visitForLoop((ForLoopTree) t, null);
        case ENHANCED_FOR_LOOP: return super.visitEnhancedForLoop((EnhancedForLoopTree) t, null);
        case CATCH: return super.visitCatch((CatchTree) t, null);
        case TRY: return super.visitTry((TryTree) t, null);
        case SWITCH: return super.visitSwitch((SwitchTree) t, null);
        case SWITCH_EXPRESSION: return super.visitSwitchExpression((SwitchExpressionTree) t, null);
        case CASE: return super.visitCase((CaseTree) t, null);
        default: throw new IllegalStateException(t.getKind().toString());
      }
    }

    @Override public Void visitMethod(MethodTree t, Void v) { return scoped(t); }
    @Override public Void visitLambdaExpression(LambdaExpressionTree t, Void v) { return scoped(t); }
    @Override public Void visitBlock(BlockTree t, Void v) { return scoped(t); }
    @Override public Void visitForLoop(ForLoopTree t, Void v) { return scoped(t); }
    @Override public Void visitEnhancedForLoop(EnhancedForLoopTree t, Void v) { return scoped(t); }
    @Override public Void visitCatch(CatchTree t, Void v) { return scoped(t); }
    @Override public Void visitTry(TryTree t, Void v) { return scoped(t); }
    @Override public Void visitSwitch(SwitchTree t, Void v) { return scoped(t); }
    @Override public Void visitSwitchExpression(SwitchExpressionTree t, Void v) { return scoped(t); }
    @Override public Void visitCase(CaseTree t, Void v) { return scoped(t); }

    @Override public Void visitPackage(PackageTree t, Void v) {
      return scan(t.getAnnotations(), null);
    }

    @Override public Void visitClass(ClassTree t, Void v) {
      String name = t.getSimpleName().toString();
      if (!name.isEmpty()) {
        long from = Math.max(start(t), end(t.getModifiers()));
        int at = forward(text, (int) from, name);
        if (at >= 0) add(defs, name, path, line(at));
        typeDefs.add(name);
      }
      return scoped(t);
    }

    @Override public Void visitVariable(VariableTree t, Void v) {
      Tree parent = getCurrentPath().getParentPath().getLeaf();
      String name = t.getName().toString();
      if (parent instanceof ClassTree) {
        ClassTree owner = (ClassTree) parent;
        if (enumConstant(owner, t)) {
          int at = forward(text, (int) Math.max(start(t), end(t.getModifiers())), name);
          if (at >= 0) add(defs, name, path, line(at));
          constantDefs.add(name);
          // Its arguments and body; the implicit `new E()` and type are not in the text.
          NewClassTree init = (NewClassTree) t.getInitializer();
          scan(t.getModifiers(), null);
          scan(init.getArguments(), null);
          return scan(init.getClassBody(), null);
        }
        Set<Modifier> flags = t.getModifiers().getFlags();
        boolean iface = owner.getKind() == Tree.Kind.INTERFACE || owner.getKind() == Tree.Kind.ANNOTATION_TYPE;
        if (iface || (flags.contains(Modifier.STATIC) && flags.contains(Modifier.FINAL))) {
          int at = t.getInitializer() != null ? backward(text, (int) start(t.getInitializer()), name) : forward(text, (int) end(t.getType()), name);
          if (at >= 0) add(defs, name, path, line(at));
          constantDefs.add(name);
        }
      } else if (!scopes.isEmpty()) {
        // A local binding: in scope from here to the end of the enclosing scope.
        scopes.peek().add(name);
      }
      return super.visitVariable(t, v);
    }

    boolean enumConstant(ClassTree owner, VariableTree t) {
      if (owner.getKind() != Tree.Kind.ENUM || !(t.getInitializer() instanceof NewClassTree)) return false;
      // The parser's implicit `new E()` stands where the constant's own name is written.
      ExpressionTree ident = ((NewClassTree) t.getInitializer()).getIdentifier();
      return ident instanceof IdentifierTree && ((IdentifierTree) ident).getName().contentEquals(owner.getSimpleName()) && spells(text, (int) start(ident), t.getName().toString());
    }

    @Override public Void visitIdentifier(IdentifierTree t, Void v) {
      String name = t.getName().toString();
      long at = start(t);
      if (!spells(text, (int) at, name)) return null;
      TreePath p = getCurrentPath();
      boolean type = typeOnly(p);
      if (type ? packagePart(p) || local("<" + name) : local(name)) return null;
      add(type ? typeUses : uses, name, path, line(at));
      return null;
    }

    @Override public Void visitMemberSelect(MemberSelectTree t, Void v) {
      scan(t.getExpression(), null);
      String name = t.getIdentifier().toString();
      long at = end(t) - name.length();
      TreePath p = getCurrentPath();
      boolean type = typeOnly(p);
      if (name.equals("class") || name.equals("*") || !spells(text, (int) at, name) || (type && packagePart(p))) return null;
      add(type ? typeUses : uses, name, path, line(at));
      return null;
    }

    // Module directives name packages and modules (`exports a.b.std;`); `uses`/`provides` name types and are scanned.
    @Override public Void visitExports(ExportsTree t, Void v) { return null; }
    @Override public Void visitOpens(OpensTree t, Void v) { return null; }
    @Override public Void visitRequires(RequiresTree t, Void v) { return null; }

    @Override public Void visitMethodInvocation(MethodInvocationTree t, Void v) {
      scan(t.getTypeArguments(), null);
      // The method's own name is no use; the receiver is.
      if (t.getMethodSelect() instanceof MemberSelectTree) scan(((MemberSelectTree) t.getMethodSelect()).getExpression(), null);
      return scan(t.getArguments(), null);
    }

    @Override public Void visitAnnotation(AnnotationTree t, Void v) {
      scan(t.getAnnotationType(), null);
      for (ExpressionTree arg : t.getArguments()) {
        // `key = value`: the key names an annotation element (a method), not a use.
        if (arg instanceof AssignmentTree) scan(((AssignmentTree) arg).getExpression(), null);
        else scan(arg, null);
      }
      return null;
    }

    /**
     * Where a name can only be a type (or a package): a type position, a `.class` literal's qualifier, a non-static
     * import, the qualifier of a static import's member, a qualifier of a name that is itself type-only.
     */
    static boolean typeOnly(TreePath p) {
      Tree leaf = p.getLeaf();
      TreePath up = p.getParentPath();
      Tree parent = up.getLeaf();
      if (parent instanceof ImportTree) return !((ImportTree) parent).isStatic();
      if (parent instanceof MemberSelectTree && ((MemberSelectTree) parent).getExpression() == leaf) {
        if (((MemberSelectTree) parent).getIdentifier().contentEquals("class")) return true;
        Tree grand = up.getParentPath().getLeaf();
        return grand instanceof ImportTree || typeOnly(up);
      }
      return typePosition(p);
    }

    /**
     * A qualifier in a type-only qualified name that is a package by Java's naming convention: it and every name
     * before it begin in lower case (`com.acme.ser.std.Writer`: `com` … `std` are packages), and it is followed by a
     * further name.
     */
    static boolean packagePart(TreePath p) {
      Tree leaf = p.getLeaf();
      Tree parent = p.getParentPath().getLeaf();
      if (!(parent instanceof MemberSelectTree) || ((MemberSelectTree) parent).getExpression() != leaf) return false;
      if (((MemberSelectTree) parent).getIdentifier().contentEquals("class")) return false;
      for (Tree t = leaf; ; t = ((MemberSelectTree) t).getExpression()) {
        String name = t instanceof IdentifierTree ? ((IdentifierTree) t).getName().toString() : t instanceof MemberSelectTree ? ((MemberSelectTree) t).getIdentifier().toString() : "";
        if (name.isEmpty() || !Character.isLowerCase(name.charAt(0))) return false;
        if (t instanceof IdentifierTree) return true;
      }
    }

    /** Where an identifier can only be a type, so a local of that name does not hide it. */
    static boolean typePosition(TreePath p) {
      Tree leaf = p.getLeaf();
      Tree parent = p.getParentPath().getLeaf();
      switch (parent.getKind()) {
        case PARAMETERIZED_TYPE: case ARRAY_TYPE: case UNION_TYPE: case INTERSECTION_TYPE: case EXTENDS_WILDCARD:
        case SUPER_WILDCARD: case TYPE_PARAMETER: return true;
        case ANNOTATION: case TYPE_ANNOTATION: return ((AnnotationTree) parent).getAnnotationType() == leaf;
        case NEW_ARRAY: return ((NewArrayTree) parent).getType() == leaf;
        case VARIABLE: return ((VariableTree) parent).getType() == leaf;
        case METHOD: return ((MethodTree) parent).getReturnType() == leaf || ((MethodTree) parent).getThrows().contains(leaf);
        case CLASS: case INTERFACE: case ENUM: case RECORD: case ANNOTATION_TYPE: return true;
        case NEW_CLASS: return ((NewClassTree) parent).getIdentifier() == leaf;
        case TYPE_CAST: return ((TypeCastTree) parent).getType() == leaf;
        case INSTANCE_OF: return ((InstanceOfTree) parent).getType() == leaf;
        default: return false;
      }
    }
  }

  public static void main(String[] args) throws IOException {
    Path root = Paths.get(args[0]);
    List<String> paths = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String l; (l = in.readLine()) != null; ) if (!l.isBlank()) paths.add(l.strip());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    Map<String, String> byUri = new HashMap<>();
    DiagnosticListener<JavaFileObject> listener = d -> {
      if (d.getKind() == Diagnostic.Kind.ERROR && d.getSource() != null) {
        String p = byUri.get(d.getSource().toUri().toString());
        if (p != null) unparsed.add(p);
      }
    };
    StandardJavaFileManager fm = javac.getStandardFileManager(listener, Locale.ROOT, StandardCharsets.UTF_8);
    List<File> files = new ArrayList<>();
    for (String p : paths) {
      File f = root.resolve(p).toFile();
      files.add(f);
      for (JavaFileObject o : fm.getJavaFileObjects(f)) byUri.put(o.toUri().toString(), p);
    }
    JavacTask task = (JavacTask) javac.getTask(null, fm, listener, List.of("-proc:none", "-encoding", "UTF-8", "-Xmaxerrs", "100000"), null, fm.getJavaFileObjectsFromFiles(files));
    Iterable<? extends CompilationUnitTree> units = task.parse();
    SourcePositions pos = Trees.instance(task).getSourcePositions();
    for (CompilationUnitTree cu : units) {
      String p = byUri.get(cu.getSourceFile().toUri().toString());
      if (p == null || unparsed.contains(p)) continue;
      String text = cu.getSourceFile().getCharContent(true).toString();
      new Scanner(p, text, cu, pos).scan(cu, null);
    }
    StringBuilder out = new StringBuilder("{\"defs\":");
    table(out, defs);
    // A name in a type-only position is a use of a type, not of a constant spelled the same (`String.class` is no
    // use of an enum constant `String`).
    for (Map.Entry<String, List<String>> e : typeUses.entrySet()) {
      if (typeDefs.contains(e.getKey()) || !constantDefs.contains(e.getKey())) uses.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).addAll(e.getValue());
    }
    out.append(",\"uses\":");
    table(out, uses);
    out.append(",\"unparsed\":[").append(String.join(",", unparsed.stream().map(JavaTruth::quote).toList())).append("]}");
    PrintStream stdout = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    stdout.print(out);
    stdout.flush();
  }

  static void table(StringBuilder out, Map<String, List<String>> t) {
    out.append('{');
    boolean first = true;
    for (Map.Entry<String, List<String>> e : t.entrySet()) {
      if (!first) out.append(',');
      first = false;
      out.append(quote(e.getKey())).append(":[").append(String.join(",", e.getValue())).append(']');
    }
    out.append('}');
  }
}
