// Every statement about rate limits: a fixed window per key, counted in one statement so that processes share it.
import { one, type Sql } from './database.js';

export interface LimitWindow {
  hits: number;
  ends_at: Date;
}

/** Counts one hit of `key`: in its window while it lasts, else in a new one ending at `endsAt`. */
export async function countHit(sql: Sql, key: string, now: Date, endsAt: Date): Promise<LimitWindow> {
  return (await one<LimitWindow>(
    sql,
    `INSERT INTO rate_limit_windows AS w (key, ends_at, hits) VALUES ($1, $3, 1)
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN w.ends_at <= $2 THEN 1 ELSE w.hits + 1 END,
       ends_at = CASE WHEN w.ends_at <= $2 THEN EXCLUDED.ends_at ELSE w.ends_at END
     RETURNING hits, ends_at`,
    [key, now, endsAt],
  ))!;
}

/** The hits of `key` in its window, if the window still lasts. */
export async function liveWindow(sql: Sql, key: string, now: Date): Promise<LimitWindow | undefined> {
  return one(sql, 'SELECT hits, ends_at FROM rate_limit_windows WHERE key = $1 AND ends_at > $2', [key, now]);
}

/** Forgets windows that ended before `before`, so the table holds only the clients of late. */
export async function deleteEndedWindows(sql: Sql, before: Date): Promise<void> {
  await sql.query('DELETE FROM rate_limit_windows WHERE ends_at < $1', [before]);
}
