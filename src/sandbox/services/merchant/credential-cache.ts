// What was read of merchants' credentials, kept in memory: each entry for a while, and every entry only until
// credentials change (Merchants clears its caches on a change in this process and on the NOTIFY of any other). A read
// that began before a change is answered but not kept, so it cannot put back what the change ended.
export class CredentialCache<V> {
  readonly #kept = new Map<string, { value: V; until: number }>();
  #changes = 0;

  constructor(
    /** How long an entry is trusted without a word from the database, should a notification be missed. */
    private readonly keepMs: number,
    /** Entries kept at most: past it the oldest go first, so a flood of keys costs reads, not memory. */
    private readonly max = Infinity,
  ) {}

  /**
   * The value kept for `key` while it is fresh and `stillGood` says so, else what `read` answers (undefined, for
   * nothing, is not kept).
   */
  async get(key: string, read: () => Promise<V | undefined>, stillGood?: (value: V) => boolean): Promise<V | undefined> {
    const kept = this.#kept.get(key);
    if (kept && kept.until > Date.now() && (!stillGood || stillGood(kept.value))) return kept.value;
    this.#kept.delete(key);
    const changes = this.#changes;
    const value = await read();
    if (value === undefined || changes !== this.#changes) return value;
    if (this.#kept.size >= this.max) this.#kept.delete(this.#kept.keys().next().value!);
    this.#kept.set(key, { value, until: Date.now() + this.keepMs });
    return value;
  }

  clear(): void {
    this.#changes++;
    this.#kept.clear();
  }
}
