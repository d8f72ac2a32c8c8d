// A Prometheus histogram of durations, its series found by one string key. An observation is a Map lookup, a search
// over the bounds and three additions; prom-client's own histogram converts, validates and hashes the labels on every
// observation, and formats the bucket's bound as a key (two observations per request: about 3% of the gateway's CPU
// on the checkout view, a CPU profile). The registry reads it as one of its own: name, help, type, get() and reset().
import type { Metric, MetricValueWithName, Registry } from 'prom-client';

interface Series {
  labels: Record<string, string | number>;
  /** Observations per bucket, each counted in the first bound it is at or under; over the last: only in `count`. */
  inBucket: number[];
  sum: number;
  count: number;
}

export class Durations {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    // Read by the registry through what it formats, not a class of its own (its declarations type `type` as an enum).
    registry.registerMetric(this as unknown as Metric);
  }

  /** `key` stands for one set of labels; `labels` is called only the first time the key is seen. */
  observe(key: string, labels: () => Record<string, string | number>, seconds: number): void {
    let series = this.#series.get(key);
    if (!series) this.#series.set(key, (series = { labels: labels(), inBucket: this.bounds.map(() => 0), sum: 0, count: 0 }));
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > this.bounds[bucket]!) bucket++;
    if (bucket < this.bounds.length) series.inBucket[bucket]!++;
    series.sum += seconds;
    series.count++;
  }

  /** The series as Prometheus has them: cumulative buckets up to +Inf, then the sum and the count. */
  async get() {
    const values: MetricValueWithName<string>[] = [];
    for (const { labels, inBucket, sum, count } of this.#series.values()) {
      let cumulative = 0;
      inBucket.forEach((n, i) => values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: this.bounds[i]! }, value: (cumulative += n) }));
      values.push(
        { metricName: `${this.name}_bucket`, labels: { ...labels, le: '+Inf' }, value: count },
        { metricName: `${this.name}_sum`, labels, value: sum },
        { metricName: `${this.name}_count`, labels, value: count },
      );
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.#series.clear();
  }
}
