import type { Pool, RowDataPacket } from 'mysql2/promise';

/**
 * The read-only MySQL connection the BuddyPress readers share: a query that answers rows, and the prefixed,
 * quoted name of a table. Sessions are set READ ONLY, so even a credential with write rights cannot change the
 * source. Dates stay strings (`dateStrings`): BuddyPress writes GMT wall clocks and WordPress zero dates, which JS
 * Dates would mangle.
 */
export interface SourceQuery {
  select<R>(sql: string, params?: unknown[]): Promise<R[]>;
  /** `name` with the site's table prefix, quoted. */
  table(name: string): string;
  readonly tablePrefix: string;
  close(): Promise<void>;
}

export interface MysqlSourceConfig {
  readonly uri?: string;
  readonly host?: string;
  readonly port?: number;
  readonly user?: string;
  readonly password?: string;
  readonly database?: string;
  readonly tablePrefix: string;
}

/**
 * Opens the pool. The driver (mysql2 with iconv-lite, about 1 MB) is imported here, at run time, so only a
 * process that reads a configured source loads it; the functions that may read one name it in their catalogue
 * line (`nativeModules`), which keeps it out of their bundles and installs it beside them.
 */
export async function openSourceQuery(config: MysqlSourceConfig): Promise<SourceQuery> {
  if (!/^[A-Za-z0-9_]*$/.test(config.tablePrefix))
    throw new Error('The BuddyPress table prefix may hold only letters, digits and _');
  const { default: mysql } = await import('mysql2/promise');
  const pool: Pool = mysql.createPool({
    ...(config.uri
      ? { uri: config.uri }
      : {
          host: config.host,
          port: config.port ?? 3306,
          user: config.user,
          password: config.password,
          database: config.database,
        }),
    // One per chunk a worker process runs at once (the queue's maxConcurrency locally; one in a Lambda).
    connectionLimit: 4,
    dateStrings: true,
    charset: 'utf8mb4',
    supportBigNumbers: true,
    connectTimeout: 5000,
  });
  pool.pool.on('connection', (connection) => {
    connection.query('SET SESSION TRANSACTION READ ONLY');
  });
  return {
    async select<R>(sql: string, params: unknown[] = []): Promise<R[]> {
      const [rows] = await pool.query<RowDataPacket[]>(sql, params);
      return rows as unknown as R[];
    },
    table: (name) => `\`${config.tablePrefix}${name}\``,
    tablePrefix: config.tablePrefix,
    close: () => pool.end(),
  };
}
