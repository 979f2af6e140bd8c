/** MySQL wire-protocol numbers quarry uses: commands, capability and status flags, column types. */

export const Command = {
  QUIT: 0x01,
  INIT_DB: 0x02,
  QUERY: 0x03,
  FIELD_LIST: 0x04,
  STATISTICS: 0x09,
  PING: 0x0e,
  STMT_PREPARE: 0x16,
  STMT_EXECUTE: 0x17,
  STMT_SEND_LONG_DATA: 0x18,
  STMT_CLOSE: 0x19,
  STMT_RESET: 0x1a,
  SET_OPTION: 0x1b,
} as const;

export const Capability = {
  LONG_PASSWORD: 1,
  FOUND_ROWS: 1 << 1,
  LONG_FLAG: 1 << 2,
  CONNECT_WITH_DB: 1 << 3,
  PROTOCOL_41: 1 << 9,
  SSL: 1 << 11,
  TRANSACTIONS: 1 << 13,
  SECURE_CONNECTION: 1 << 15,
  MULTI_STATEMENTS: 1 << 16,
  MULTI_RESULTS: 1 << 17,
  PS_MULTI_RESULTS: 1 << 18,
  PLUGIN_AUTH: 1 << 19,
  CONNECT_ATTRS: 1 << 20,
  PLUGIN_AUTH_LENENC_CLIENT_DATA: 1 << 21,
} as const;

/**
 * What the server offers. No SSL, no compression, and no DEPRECATE_EOF: classic EOF packets are
 * understood by every client (mysql2, libmariadb, PyMySQL).
 */
export const SERVER_CAPABILITIES =
  Capability.LONG_PASSWORD | Capability.FOUND_ROWS | Capability.LONG_FLAG | Capability.CONNECT_WITH_DB |
  Capability.PROTOCOL_41 | Capability.TRANSACTIONS | Capability.SECURE_CONNECTION | Capability.MULTI_STATEMENTS |
  Capability.MULTI_RESULTS | Capability.PS_MULTI_RESULTS | Capability.PLUGIN_AUTH | Capability.CONNECT_ATTRS |
  Capability.PLUGIN_AUTH_LENENC_CLIENT_DATA;

export const Status = {
  IN_TRANS: 0x0001,
  AUTOCOMMIT: 0x0002,
  MORE_RESULTS_EXISTS: 0x0008,
} as const;

export const ColumnType = {
  LONG: 3,
  FLOAT: 4,
  DOUBLE: 5,
  LONGLONG: 8,
  VAR_STRING: 253,
  STRING: 254,
} as const;

/** Column flag of unsigned integers. */
export const UNSIGNED_FLAG = 32;
/** utf8_general_ci, the collation Manticore announces for every column and the handshake. */
export const CHARSET_UTF8 = 0x21;
export const AUTH_PLUGIN = 'mysql_native_password';

/** Manticore's error numbers and SQLSTATEs (searchdaemon.h EMYSQL_ERR). */
export const ErrorCode = {
  UNKNOWN_COM: { errno: 1047, sqlState: '08S01' },
  PARSE: { errno: 1064, sqlState: '42000' },
  /** ER_CON_COUNT_ERROR: max_connections reached. */
  TOO_MANY_CONNECTIONS: { errno: 1040, sqlState: '08004' },
} as const;
