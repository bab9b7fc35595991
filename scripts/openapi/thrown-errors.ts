import { join, relative } from 'node:path';
import ts from 'typescript';

/*
 * Which typed errors code can raise, found in the sources by the compiler: every AppError (libs/common errors.ts, its
 * helpers notFound/forbidden/conflict/badRequest and its subclasses) and AuthError (identity) the code constructs,
 * directly or through anything it calls or refers to (functions, methods, a pipe's exceptionFactory, an interceptor
 * named in a decorator, the implementations of an interface method it calls), with the status and code the compiler
 * knows for their arguments. A construction counts wherever it is: an error made to be thrown by a caller (`return
 * notFound(...)`) is found too. The OpenAPI spec holds each route's @ApiErrors to this.
 */

const ROOT = join(__dirname, '../..');

export interface ErrorSite {
  status: number;
  code: string;
  /** 'AppError' (the shared body), 'AuthError' (identity's hosted-auth body) or 'HttpException' (Nest's own, no code of ours). */
  kind: 'AppError' | 'AuthError' | 'HttpException';
  /** Where it is made: path from the repository root, and line. */
  at: string;
}

/** Something the compiler could not pin to literal statuses and codes (a wide type): the spec names it. */
export interface Unresolved {
  at: string;
  reason: string;
}

export interface Reach {
  sites: ErrorSite[];
  unresolved: Unresolved[];
}

const HELPERS: Record<string, { status: number; codeArg: number; defaultCode: string }> = {
  notFound: { status: 404, codeArg: 1, defaultCode: 'not_found' },
  forbidden: { status: 403, codeArg: 1, defaultCode: 'forbidden' },
  conflict: { status: 409, codeArg: 1, defaultCode: 'conflict' },
  badRequest: { status: 400, codeArg: 1, defaultCode: 'bad_request' },
};

/** Nest's built-in exceptions, answered with the shared body's default code for their status (errors.ts DEFAULT_CODES). */
const NEST_EXCEPTIONS: Record<string, [number, string]> = {
  BadRequestException: [400, 'bad_request'],
  UnauthorizedException: [401, 'unauthorized'],
  ForbiddenException: [403, 'forbidden'],
  NotFoundException: [404, 'not_found'],
  MethodNotAllowedException: [405, 'method_not_allowed'],
  ConflictException: [409, 'conflict'],
  PayloadTooLargeException: [413, 'payload_too_large'],
  UnsupportedMediaTypeException: [415, 'unsupported_media_type'],
  UnprocessableEntityException: [422, 'unprocessable_entity'],
};

/** Nest's parsing pipes: without an exceptionFactory they refuse with a BadRequestException (code bad_request). */
/** True when `body` throws the caught error (`name`) again, as it is. */
function rethrows(name: ts.BindingName | undefined, body: ts.Node): boolean {
  if (!name || !ts.isIdentifier(name)) return false;
  let found = false;
  const look = (node: ts.Node) => {
    if (ts.isThrowStatement(node) && node.expression && ts.isIdentifier(node.expression) && node.expression.text === name.text) found = true;
    else ts.forEachChild(node, look);
  };
  look(body);
  return found;
}

const NEST_PIPES = new Set(['ParseUUIDPipe', 'ParseIntPipe', 'ParseFloatPipe', 'ParseBoolPipe', 'ParseEnumPipe', 'ParseArrayPipe', 'ParseDatePipe']);

/** A union wider than this (e.g. every ServiceErrorCode) is not a statement of what the code raises. */
const WIDEST_UNION = 12;

/** The errors a route's handler, its pipes and interceptors, or a guard, can raise. */
export class ThrownErrors {
  private readonly program: ts.Program;
  private readonly checker: ts.TypeChecker;
  private readonly classes: ts.ClassDeclaration[] = [];

  /** A program of every source file of services/ and libs/ but specs and test helpers (types from node_modules). */
  constructor(private readonly root = ROOT) {
    const parsed = ts.getParsedCommandLineOfConfigFile(
      join(root, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        },
      },
    );
    if (!parsed) throw new Error('tsconfig.json could not be read');
    const files = parsed.fileNames.filter((f) => /^(services|libs)\//.test(relative(root, f)) && this.isSource(f));
    this.program = ts.createProgram(files, { ...parsed.options, incremental: false, noEmit: true, tsBuildInfoFile: undefined });
    this.checker = this.program.getTypeChecker();
    for (const file of this.program.getSourceFiles()) {
      if (!this.isSource(file.fileName)) continue;
      const collect = (node: ts.Node) => {
        if (ts.isClassDeclaration(node) && node.name) this.classes.push(node);
        ts.forEachChild(node, collect);
      };
      collect(file);
    }
  }

  private isSource(fileName: string) {
    return (
      !fileName.includes('/node_modules/') &&
      !fileName.endsWith('.d.ts') &&
      !/\.(spec|integration-spec)\.ts$/.test(fileName) &&
      !/\/(testing|fixtures)\//.test(fileName)
    );
  }

  /** The class declaration named `name` in a file under one of `dirs` (paths from the repository root), the first found. */
  findClass(name: string, dirs: string[]): ts.ClassDeclaration {
    const found = this.classes.filter((c) => c.name!.text === name);
    for (const dir of dirs) {
      const inDir = found.filter((c) => this.path(c).startsWith(`${dir}/`));
      if (inDir.length === 1) return inDir[0];
      if (inDir.length > 1) throw new Error(`two classes ${name} under ${dir}`);
    }
    throw new Error(`no class ${name} under ${dirs.join(', ')}`);
  }

  /** What calling `method` of `cls` can raise, with the pipes, interceptors and other decorators of the method and class. */
  ofRoute(cls: ts.ClassDeclaration, method: string): Reach {
    const handler = cls.members.find((m) => ts.isMethodDeclaration(m) && m.name.getText() === method);
    if (!handler) throw new Error(`${cls.name!.text} has no method ${method}`);
    return this.reach([handler, ...(ts.getDecorators(cls) ?? [])]);
  }

  /** What a class's methods (e.g. a guard's canActivate) can raise, its constructor included. */
  ofMethods(cls: ts.ClassDeclaration, methods: string[]): Reach {
    const members = cls.members.filter((m) => ts.isConstructorDeclaration(m) || (ts.isMethodDeclaration(m) && methods.includes(m.name.getText())));
    if (members.filter(ts.isMethodDeclaration).length !== methods.length) throw new Error(`${cls.name!.text} lacks one of ${methods.join(', ')}`);
    return this.reach(members);
  }

  /** What a function exported from a file (path from the repository root) can raise. */
  ofFunction(file: string, name: string): Reach {
    const source = this.program.getSourceFile(join(this.root, file));
    if (!source) throw new Error(`${file} is not in the program`);
    let found: ts.Node | undefined;
    const look = (node: ts.Node) => {
      if ((ts.isFunctionDeclaration(node) || ts.isVariableDeclaration(node)) && node.name?.getText() === name) found = node;
      else ts.forEachChild(node, look);
    };
    look(source);
    if (!found) throw new Error(`${file} has no ${name}`);
    return this.reach([found]);
  }

  private path(node: ts.Node) {
    return relative(this.root, node.getSourceFile().fileName);
  }

  private at(node: ts.Node) {
    const source = node.getSourceFile();
    return `${relative(this.root, source.fileName)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  }

  private symbolAt(node: ts.Node): ts.Symbol | undefined {
    let symbol =
      node.parent && ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node
        ? this.checker.getShorthandAssignmentValueSymbol(node.parent)
        : this.checker.getSymbolAtLocation(node);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    return symbol;
  }

  private inRepo(node: ts.Node) {
    return this.isSource(node.getSourceFile().fileName);
  }

  /** The literal values of an expression's type: a number or string literal, or a union of them (undefined dropped). */
  private literals(expr: ts.Expression | undefined): (string | number)[] | undefined {
    if (!expr) return undefined;
    const type = this.checker.getTypeAtLocation(expr);
    const parts = type.isUnion() ? type.types : [type];
    const values: (string | number)[] = [];
    for (const part of parts) {
      if (part.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)) continue;
      if (part.isStringLiteral() || part.isNumberLiteral()) values.push(part.value);
      else return undefined;
    }
    return values.length && values.length <= WIDEST_UNION ? values : undefined;
  }

  private extendsError(cls: ts.ClassDeclaration, seen = new Set<ts.ClassDeclaration>()): 'AppError' | 'AuthError' | undefined {
    if (seen.has(cls)) return undefined;
    seen.add(cls);
    const base = cls.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
    if (!base) return undefined;
    const symbol = this.symbolAt(base.expression);
    const decl = symbol?.declarations?.find(ts.isClassDeclaration);
    if (!decl || !this.inRepo(decl)) return undefined;
    if (decl.name?.text === 'AppError' || decl.name?.text === 'AuthError') return decl.name.text;
    return this.extendsError(decl, seen);
  }

  private reach(roots: ts.Node[]): Reach {
    const sites = new Map<string, ErrorSite>();
    const unresolved: Unresolved[] = [];
    const visited = new Set<ts.Node>();
    const queue: ts.Node[] = [...roots];

    const record = (
      node: ts.Node,
      kind: ErrorSite['kind'],
      statusExpr: ts.Expression | undefined,
      codeExpr: ts.Expression | undefined,
      defaultCode?: string,
      fixedStatus?: number,
    ) => {
      const statuses = fixedStatus !== undefined ? [fixedStatus] : this.literals(statusExpr);
      const codes = codeExpr ? this.literals(codeExpr) : defaultCode ? [defaultCode] : undefined;
      if (!statuses || !codes) {
        unresolved.push({
          at: this.at(node),
          reason: `${kind} with ${!statuses ? `status ${statusExpr?.getText()}` : `code ${codeExpr?.getText()}`} of no literal type`,
        });
        return;
      }
      for (const status of statuses)
        for (const code of codes) sites.set(`${status} ${code} ${this.at(node)}`, { status: Number(status), code: String(code), kind, at: this.at(node) });
    };

    const enqueueDeclaration = (decl: ts.Declaration) => {
      if (!this.inRepo(decl) || visited.has(decl)) return;
      if (
        ts.isFunctionDeclaration(decl) ||
        ts.isMethodDeclaration(decl) ||
        ts.isConstructorDeclaration(decl) ||
        ts.isGetAccessorDeclaration(decl) ||
        ts.isSetAccessorDeclaration(decl) ||
        ts.isArrowFunction(decl) ||
        ts.isFunctionExpression(decl)
      ) {
        queue.push(decl);
      } else if ((ts.isVariableDeclaration(decl) || ts.isPropertyDeclaration(decl)) && decl.initializer) {
        visited.add(decl);
        queue.push(decl.initializer);
      } else if (ts.isClassDeclaration(decl)) {
        // a class used as a value (constructed, or named in @UseInterceptors/@UsePipes): what it does when Nest runs it
        visited.add(decl);
        for (const member of decl.members) {
          if (ts.isConstructorDeclaration(member)) queue.push(member);
          if (ts.isPropertyDeclaration(member) && member.initializer) queue.push(member.initializer);
          if (ts.isMethodDeclaration(member) && ['intercept', 'transform'].includes(member.name.getText())) queue.push(member);
        }
      } else if (ts.isMethodSignature(decl) || ts.isPropertySignature(decl) || (ts.isMethodDeclaration(decl) && !decl.body)) {
        queue.push(...this.implementations(decl));
      }
    };

    const visit = (node: ts.Node): void => {
      if (ts.isTypeNode(node) || ts.isImportDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
      // try { ... } catch (e) { ... } whose catch never throws `e` again: what the try block raises does not get out
      if (ts.isTryStatement(node) && node.catchClause && !rethrows(node.catchClause.variableDeclaration?.name, node.catchClause.block)) {
        visit(node.catchClause.block);
        if (node.finallyBlock) visit(node.finallyBlock);
        return;
      }
      // promise.catch((e) => ...) whose handler never throws `e` again: the same for the promise's work
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'catch' && node.arguments.length === 1) {
        const handler = node.arguments[0];
        if ((ts.isArrowFunction(handler) || ts.isFunctionExpression(handler)) && !rethrows(handler.parameters[0]?.name, handler.body)) {
          visit(handler);
          return;
        }
      }
      if (ts.isNewExpression(node)) {
        const symbol = this.symbolAt(node.expression);
        const decl = symbol?.declarations?.[0];
        const name = symbol?.getName() ?? '';
        if (decl && ts.isClassDeclaration(decl) && this.inRepo(decl) && (name === 'AppError' || name === 'AuthError')) {
          record(node, name, node.arguments?.[0], node.arguments?.[1]);
        } else if (decl && ts.isClassDeclaration(decl) && this.inRepo(decl) && this.extendsError(decl)) {
          const ctor = decl.members.find(ts.isConstructorDeclaration);
          let sup: ts.CallExpression | undefined;
          const findSuper = (n: ts.Node) => {
            if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.SuperKeyword) sup = n;
            else ts.forEachChild(n, findSuper);
          };
          if (ctor) findSuper(ctor);
          if (sup) record(node, this.extendsError(decl)!, sup.arguments[0], sup.arguments[1]);
          else unresolved.push({ at: this.at(node), reason: `${name} has no super(status, code) call` });
        } else if (decl && !this.inRepo(decl) && NEST_EXCEPTIONS[name]) {
          const [status, code] = NEST_EXCEPTIONS[name];
          record(node, 'HttpException', undefined, undefined, code, status);
        } else if (decl && !this.inRepo(decl) && NEST_PIPES.has(name)) {
          const options = node.arguments?.[0];
          const factory = options && ts.isObjectLiteralExpression(options) && options.properties.some((p) => p.name?.getText() === 'exceptionFactory');
          if (!factory) record(node, 'HttpException', undefined, undefined, 'bad_request', 400);
        }
      } else if (ts.isCallExpression(node)) {
        const symbol = this.symbolAt(node.expression);
        const decl = symbol?.declarations?.[0];
        const helper = symbol && HELPERS[symbol.getName()];
        if (decl && helper && this.path(decl) === 'libs/common/src/errors.ts') {
          record(node, 'AppError', undefined, node.arguments[helper.codeArg], helper.defaultCode, helper.status);
        }
      } else if (ts.isIdentifier(node) && !(node.parent && ts.isNewExpression(node.parent) && node.parent.expression === node)) {
        const symbol = this.symbolAt(node);
        const decl = symbol?.declarations?.[0];
        if (symbol && decl) {
          if (!this.inRepo(decl)) {
            // a Nest parsing pipe named as a class (@Param('id', ParseIntPipe)): its own refusal
            if (NEST_PIPES.has(symbol.getName()) && ts.isClassDeclaration(decl) && !(node.parent && ts.isImportSpecifier(node.parent)))
              record(node, 'HttpException', undefined, undefined, 'bad_request', 400);
          } else if (!(HELPERS[symbol.getName()] && this.path(decl) === 'libs/common/src/errors.ts')) {
            for (const d of symbol.declarations ?? []) enqueueDeclaration(d);
          }
        }
      }
      ts.forEachChild(node, visit);
    };

    while (queue.length) {
      const node = queue.shift()!;
      if (visited.has(node)) continue;
      visited.add(node);
      visit(node);
    }
    return { sites: [...sites.values()], unresolved };
  }

  /** The bodies that run for a call of an interface's method or an abstract method: the classes' that implement it. */
  private implementations(member: ts.Declaration): ts.Node[] {
    const owner = member.parent;
    if (!owner || !(ts.isInterfaceDeclaration(owner) || ts.isClassDeclaration(owner)) || !owner.name) return [];
    const ownerSymbol = this.symbolAt(owner.name);
    const name = (member as ts.NamedDeclaration).name?.getText();
    const found: ts.Node[] = [];
    for (const cls of this.classes) {
      const heritage = (cls.heritageClauses ?? []).flatMap((h) => h.types);
      if (!heritage.some((t) => this.symbolAt(t.expression) === ownerSymbol)) continue;
      for (const m of cls.members) {
        if (m.name?.getText() !== name) continue;
        if (ts.isMethodDeclaration(m) && m.body) found.push(m);
        if (ts.isPropertyDeclaration(m) && m.initializer) found.push(m.initializer);
      }
    }
    return found;
  }
}
