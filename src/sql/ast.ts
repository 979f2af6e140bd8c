/**
 * The SphinxQL statement tree that `parseSql` returns: a discriminated union on `kind`.
 *
 * Naming rules, so the engine knows what to fold:
 * - Table and column names keep the case (and backquote-stripped text) the user typed; the engine folds
 *   them to lower case as Manticore does.
 * - Names of options (`OPTION ranker=...`, `{limit=50}`, `5 AS around`), table settings
 *   (`morphology='stem_en'`), session/global variables and CALL procedures are lower-cased here, since
 *   they are case-insensitive keywords, not user objects.
 * - Every statement carries `text`: its own source, without the separating `;`.
 */

/** An integer as typed. `value` is a number when it is a safe integer, a bigint otherwise. */
export interface IntLiteral { kind: 'int'; value: number | bigint; text: string }
export interface FloatLiteral { kind: 'float'; value: number; text: string }
/** A quoted string after backslash unescaping (Manticore's rules: `\0` becomes a space). */
export interface StringLiteral { kind: 'string'; value: string }
export interface NullLiteral { kind: 'null' }
/** `(1,2,3)` or `()`: an MVA (or float vector) value. */
export interface TupleLiteral { kind: 'tuple'; items: NumberLiteral[] }

export type NumberLiteral = IntLiteral | FloatLiteral;
export type Literal = IntLiteral | FloatLiteral | StringLiteral | NullLiteral | TupleLiteral;

/** One step of a JSON attribute path: `.key` / `['key']` is a string, `[3]` is a number. */
export type PathStep = string | number;

/** Every expression node keeps `text`: its source slice, exactly as typed. */
interface ExprBase { text: string }

/** A column, `id`, or a JSON path into a column (`meta.tags[0]`: name `meta`, path `['tags', 0]`). */
export interface ColumnExpr extends ExprBase { kind: 'column'; name: string; path: PathStep[] }
export interface LiteralExpr extends ExprBase { kind: 'literal'; value: Literal }
/** `*` in a select list or inside `count(*)`; `t.*` keeps the table alias. */
export interface StarExpr extends ExprBase { kind: 'star'; table?: string }
/**
 * A function call, name lower-cased: `weight()`, `count(*)`, `highlight({limit=50}, title)`,
 * `any(tags)`. `count(distinct x)` sets `distinct`.
 */
export interface CallExpr extends ExprBase {
  kind: 'call'; name: string; args: Expr[]; distinct?: boolean;
  /** `ANY(cond FOR x IN j.arr)` / `ALL(...)`: the loop variable; args are [cond, array]. */
  loopVar?: string;
  /**
   * `GROUP_CONCAT(x SEPARATOR ';')` and the limited form `GROUP_CONCAT(x ORDER BY k DESC [SEPARATOR s]
   * LIMIT n)`: the separator (default `,`), the order of the kept values and how many are kept.
   */
  concat?: { separator?: string; order?: { expr: Expr; desc: boolean }[]; limit?: number };
}
export interface UnaryExpr extends ExprBase { kind: 'unary'; op: '-' | 'not'; operand: Expr }
export type BinaryOp =
  | '+' | '-' | '*' | '/' | '%' | 'div' | 'mod'
  | '=' | '!=' | '<' | '<=' | '>' | '>='
  | 'and' | 'or' | '&' | '|';
export interface BinaryExpr extends ExprBase { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr }
/** `{limit=50, before_match='<i>'}`: the option map of HIGHLIGHT() and friends. */
export interface MapExpr extends ExprBase { kind: 'map'; entries: NamedValue[] }
/**
 * `@@version_comment` or `@@session.auto_increment_increment` (system: `name` without `@@`, any
 * `session.`/`global.` prefix kept as typed) or `@name` (a user variable, `name` without `@`).
 */
export interface VariableExpr extends ExprBase { kind: 'variable'; name: string; system: boolean }
export interface IsNullExpr extends ExprBase { kind: 'is_null'; operand: Expr; negate: boolean }

export type Expr =
  | ColumnExpr | LiteralExpr | StarExpr | CallExpr | UnaryExpr | BinaryExpr | MapExpr | VariableExpr
  | IsNullExpr;

/** A bare word used as a value: `ranker=bm25`, `{html_strip_mode=retain}`. */
export interface IdentValue { kind: 'ident'; name: string }
/** `field_weights=(title=10, body=3)`. */
export interface ListValue { kind: 'list'; entries: NamedValue[] }
/** `ranker=expr('sum(lcs)')`: `name` lower-cased, `arg` the unescaped string. */
export interface CallValue { kind: 'call'; name: string; arg: string }
export type OptionValue = Literal | IdentValue | ListValue | CallValue;

/**
 * `name = value` in OPTION clauses, option maps and lists. `name` is lower-cased, except inside a
 * ListValue, whose names are field names (`field_weights=(Title=10)`) and keep their case.
 */
export interface NamedValue { name: string; value: OptionValue }

// ---------------------------------------------------------------------------------------------------
// WHERE

export type CompareOp = '=' | '!=' | '<' | '<=' | '>' | '>=';

/** The attribute side of a filter; `quantifier` is set for `ANY(mva) op v` / `ALL(mva) op v`. */
export interface FilterTarget { expr: Expr; quantifier?: 'any' | 'all' }

export interface CompareCondition { kind: 'compare'; op: CompareOp; target: FilterTarget; value: Literal }
export interface BetweenCondition {
  kind: 'between'; target: FilterTarget; low: NumberLiteral; high: NumberLiteral; negate: boolean;
}
/** `x IN (1,2)`; `x IN @name` names a global user variable instead (`uservar`, lower-cased with its '@'; values empty). */
export interface InCondition { kind: 'in'; target: FilterTarget; values: Literal[]; negate: boolean; uservar?: string }
export interface IsNullCondition { kind: 'is_null'; target: FilterTarget; negate: boolean }
export interface AndCondition { kind: 'and'; children: Condition[] }
export interface OrCondition { kind: 'or'; children: Condition[] }
export interface NotCondition { kind: 'not'; child: Condition }

/** Attribute filters of WHERE (MATCH() is taken out into the statement's `match`). */
export type Condition =
  | CompareCondition | BetweenCondition | InCondition | IsNullCondition
  | AndCondition | OrCondition | NotCondition;

// ---------------------------------------------------------------------------------------------------
// Statements

interface StatementBase { text: string }

/** A select-list entry. `name` is the result column name Manticore prints (see select-item-name.ts). */
export interface SelectItem { expr: Expr; alias?: string; name: string }
/** `implicit`: no ASC/DESC was written (asc then, except a facet's single key: Manticore sorts that desc). */
export interface OrderItem { expr: Expr; direction: 'asc' | 'desc'; implicit?: boolean }

/**
 * `FACET items [BY exprs] [DISTINCT col] [ORDER BY ...] [LIMIT [offset,] count]` after a SELECT: one more
 * result set, grouped by `by` (default: the items) over the main query's matches. `scope` records a
 * filter-scope clause (ALL FILTERS, FILTERS, EXCLUDE FILTERS, ZEROES, MODE) so the engine can name it.
 */
export interface FacetClause {
  items: SelectItem[];
  by?: Expr[];
  distinct?: string;
  orderBy?: OrderItem[];
  limit?: number;
  offset?: number;
  scope?: string;
  /** ALL FILTERS, FILTERS a, b (only those of the main WHERE) or EXCLUDE FILTERS a, b (all but those). */
  filters?: { kind: 'all' | 'only' | 'exclude'; attrs: string[] };
  zeroes?: boolean;
  mode?: 'strict' | 'auto' | 'max';
  text: string;
}

/** SELECT; `tables` is empty for SELECT without FROM (`select @@version_comment limit 1`). */
export interface SelectStatement extends StatementBase {
  kind: 'select';
  items: SelectItem[];
  tables: string[];
  tableAlias?: string;
  /** The MATCH('...') query, unescaped; at most one, ANDed with `where`. */
  match?: string;
  where?: Condition;
  groupBy?: Expr[];
  /** `GROUP 3 BY x`: keep N rows per group. */
  groupLimit?: number;
  withinGroupOrderBy?: OrderItem[];
  having?: Condition;
  /** `ORDER BY RAND()` is an item whose expr is the call `rand`. */
  orderBy?: OrderItem[];
  /** May be negative (`LIMIT -5`): the engine reports `limit out of bounds`. */
  limit?: number;
  offset?: number;
  /** A comment after SELECT names SQL_NO_CACHE (mysqldump's `SELECT /*!40001 SQL_NO_CACHE *\/ *`): every row, as Manticore's limit=-1. */
  allRows?: boolean;
  options: NamedValue[];
  /** FACET clauses after the statement, each one more result set. */
  facets?: FacetClause[];
}

/** INSERT / REPLACE. Without `columns`, values follow the schema order (id first). */
export interface InsertStatement extends StatementBase {
  kind: 'insert';
  replace: boolean;
  table: string;
  columns?: string[];
  rows: Literal[][];
  options: NamedValue[];
  /**
   * REPLACE INTO t SET col=value, ... WHERE id=N (Manticore's partial replace, a Buddy plugin): the
   * document's id; `columns` and the one row hold the SET list, the rest comes from the stored document.
   */
  partialId?: bigint;
}

/** `col = value` in UPDATE; `path` non-empty for JSON updates (`meta.tags[0]=100`). */
export interface Assignment { column: string; path: PathStep[]; value: Literal }

export interface UpdateStatement extends StatementBase {
  kind: 'update';
  table: string;
  assignments: Assignment[];
  match?: string;
  where?: Condition;
  options: NamedValue[];
}

export interface DeleteStatement extends StatementBase {
  kind: 'delete';
  table: string;
  match?: string;
  where?: Condition;
  options: NamedValue[];
}

/** Column types as written, folded to Manticore's DESCRIBE words (int/integer -> uint, multi -> mva). */
export type SqlColumnType =
  | 'text' | 'string' | 'uint' | 'bigint' | 'float' | 'bool' | 'timestamp' | 'json' | 'mva' | 'mva64'
  | 'float_vector';

/**
 * One column of CREATE TABLE / ALTER TABLE ADD COLUMN.
 * - text: `indexed`/`stored` as given (plain `text` = both).
 * - string: `string` / `string attribute` = attribute only; `string attribute indexed` = attribute that
 *   is also full-text indexed (indexed: true); `string indexed` / `string stored` are text fields.
 * - `bits` for `bit(N)` (type uint); `options` for `engine='columnar'`, `fast_fetch='0'`, ... (names
 *   lower-cased, values unescaped).
 */
export interface ColumnDef {
  name: string;
  type: SqlColumnType;
  indexed: boolean;
  stored: boolean;
  bits?: number;
  options: Record<string, string>;
}

/** CREATE TABLE; an `id` column (`id bigint`, `id int`, bare `id`) is accepted and left out. */
export interface CreateTableStatement extends StatementBase {
  kind: 'create_table';
  table: string;
  ifNotExists: boolean;
  columns: ColumnDef[];
  /** Settings after the column list, names lower-cased, values as text (numbers too). */
  settings: Record<string, string>;
  /** Every value of every setting in order (a distributed table's local= and agent= repeat). */
  allSettings?: Record<string, string[]>;
}

export interface CreateTableLikeStatement extends StatementBase {
  kind: 'create_table_like';
  table: string;
  like: string;
  ifNotExists: boolean;
  withData: boolean;
}

export interface DropTableStatement extends StatementBase {
  kind: 'drop_table'; table: string; ifExists: boolean; options: NamedValue[];
}

export type AlterAction =
  | { kind: 'add_column'; column: ColumnDef }
  | { kind: 'modify_column'; column: ColumnDef }
  | { kind: 'drop_column'; column: string }
  | { kind: 'settings'; settings: Record<string, string>; all?: Record<string, string[]> }
  | { kind: 'reconfigure' }
  | { kind: 'rebuild_secondary' }
  | { kind: 'rename'; to: string };

export interface AlterTableStatement extends StatementBase { kind: 'alter_table'; table: string; action: AlterAction }

/** TRUNCATE TABLE|RTINDEX t [WITH RECONFIGURE]. */
export interface TruncateStatement extends StatementBase {
  kind: 'truncate'; table: string; rtindex: boolean; reconfigure: boolean;
}

/** ATTACH TABLE|INDEX source TO TABLE|RTINDEX target [WITH TRUNCATE]. */
export interface AttachStatement extends StatementBase { kind: 'attach'; source: string; target: string; truncate: boolean }

export interface OptimizeStatement extends StatementBase { kind: 'optimize'; table: string; options: NamedValue[] }

/** FLUSH RAMCHUNK t, FLUSH RTINDEX|TABLE t (`table` set), FLUSH ATTRIBUTES|LOGS|HOSTNAMES. */
export interface FlushStatement extends StatementBase {
  kind: 'flush'; target: 'ramchunk' | 'rtindex' | 'attributes' | 'logs' | 'hostnames'; table?: string;
}

/** DESC / DESCRIBE t [LIKE 'pat']. */
export interface DescribeStatement extends StatementBase { kind: 'describe'; table: string; like?: string; options: NamedValue[] }

export type ShowWhat =
  | 'tables' | 'meta' | 'warnings' | 'status' | 'variables' | 'databases' | 'threads' | 'plugins'
  | 'collation' | 'character_set' | 'create_table' | 'columns' | 'table_status' | 'table_settings' | 'table_indexes'
  | 'profile' | 'plan' | 'settings' | 'processlist' | 'triggers' | 'agent_status' | 'version' | 'locks';

/**
 * SHOW ...: `table` for SHOW CREATE TABLE t, SHOW FIELDS|COLUMNS FROM t, SHOW TABLE t STATUS|SETTINGS
 * (SHOW TABLE STATUS without a name is the MySQL-client probe); `full` for SHOW FULL TABLES; `scope`
 * for SHOW GLOBAL|SESSION VARIABLES.
 */
export interface ShowStatement extends StatementBase {
  kind: 'show';
  what: ShowWhat;
  like?: string;
  table?: string;
  full?: boolean;
  scope?: 'global' | 'session';
  options: NamedValue[];
}

/**
 * One `SET` assignment. `name` lower-cased without `@@`; `system` for `@@name`, `user` for `@name`
 * (user variables hold tuples: `SET GLOBAL @ids = (1,2,3)`). Bare words (`SET profiling=on`) are idents;
 * TRUE/FALSE are the integers 1/0.
 */
export interface SetAssignment {
  name: string;
  scope?: 'global' | 'session';
  system?: boolean;
  user?: boolean;
  value: Literal | IdentValue;
}

export interface SetStatement extends StatementBase { kind: 'set'; assignments: SetAssignment[] }
/** SET NAMES x [COLLATE y], SET CHARACTER SET x: accepted, nothing to do. */
export interface SetNamesStatement extends StatementBase { kind: 'set_names'; charset: string; collate?: string }
/** SET [GLOBAL|SESSION] TRANSACTION ISOLATION LEVEL ...: accepted, nothing to do. */
export interface SetTransactionStatement extends StatementBase { kind: 'set_transaction'; level: string }

export interface BeginStatement extends StatementBase { kind: 'begin' }
export interface CommitStatement extends StatementBase { kind: 'commit' }
export interface RollbackStatement extends StatementBase { kind: 'rollback' }
/** SAVEPOINT sp, ROLLBACK TO [SAVEPOINT] sp, RELEASE SAVEPOINT sp: `name` lower-cased. */
export interface SavepointStatement extends StatementBase { kind: 'savepoint'; action: 'set' | 'rollback' | 'release'; name: string }

/** `('d1','d2')` as a CALL argument (CALL SNIPPETS with several documents). */
export interface StringListArg { kind: 'string_list'; values: string[] }
export type CallArg = Literal | StringListArg;

/**
 * CALL name(args [, value AS option ...]): CALL SNIPPETS, CALL KEYWORDS and others. The engine checks
 * the argument count and option names/types (`SNIPPETS() expects exactly 3 arguments ...`).
 */
export interface CallStatement extends StatementBase {
  kind: 'call';
  name: string;
  args: CallArg[];
  options: { name: string; value: Literal }[];
}

/** BACKUP [TABLES a, b] TO path [OPTION async=1, compress=0]: tables lower-cased, [] for all. */
export interface BackupStatement extends StatementBase {
  kind: 'backup'; tables: string[]; path: string; options: NamedValue[];
}

/** A replication-cluster option: `'value' AS name` (path, nodes, user). */
export interface ClusterOption { name: string; value: string }

/** CREATE / JOIN / ALTER / DELETE CLUSTER (cluster-parser.ts); the replication layer runs them. */
export type ClusterStatement =
  | (StatementBase & { kind: 'create_cluster'; cluster: string; options: ClusterOption[] })
  | (StatementBase & { kind: 'join_cluster'; cluster: string; at?: string; options: ClusterOption[] })
  | (StatementBase & { kind: 'alter_cluster'; cluster: string; op: 'add' | 'drop' | 'update'; tables: string[] })
  | (StatementBase & { kind: 'delete_cluster'; cluster: string });

/** LOCK TABLES a READ, b WRITE (mysqldump): tables lower-cased; `read` those asked READ; `write` when any asks for a write lock. */
/** DEBUG SLEEP N (searchd's debug grammar): waits N seconds, answers (command, result) = ('sleep', seconds). */
export interface DebugSleepStatement extends StatementBase { kind: 'debug_sleep'; seconds: number }
export interface LockTablesStatement extends StatementBase { kind: 'lock_tables'; tables: string[]; read: string[]; write: boolean }
export interface UnlockTablesStatement extends StatementBase { kind: 'unlock_tables' }

/**
 * SELECT ... FROM INFORMATION_SCHEMA.TABLE (MySQL tools): `table` and `columns` upper-cased as the tool
 * wrote them; `where` maps upper-cased column names to the string values they are compared with.
 */
export interface InformationSchemaStatement extends StatementBase {
  kind: 'information_schema'; table: string; columns: string[]; where: Map<string, string[]>;
}

export type Statement =
  | SelectStatement | InsertStatement | UpdateStatement | DeleteStatement
  | CreateTableStatement | CreateTableLikeStatement | DropTableStatement | AlterTableStatement
  | TruncateStatement | OptimizeStatement | FlushStatement | AttachStatement
  | DescribeStatement | ShowStatement
  | SetStatement | SetNamesStatement | SetTransactionStatement
  | BeginStatement | CommitStatement | RollbackStatement | SavepointStatement
  | CallStatement | BackupStatement | ClusterStatement
  | LockTablesStatement | UnlockTablesStatement | InformationSchemaStatement | DebugSleepStatement;
