// The child side of bench/lib/server-process.ts: announce the URL on stdout, answer "mem" on stdin with the
// heap after a full GC (node runs with --expose-gc), and close cleanly on SIGTERM.

export interface Announced {
  url: string;
  pid: number;
}

export function announce(url: string, close: () => Promise<void>): void {
  // 127.0.0.1 rather than localhost, so every client takes the same loopback route (no ::1 first on some hosts).
  const line: Announced = { url: url.replace('//localhost:', '//127.0.0.1:'), pid: process.pid };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  process.stdin.setEncoding('utf8');
  let buffered = '';
  process.stdin.on('data', (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const command = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (command !== 'mem') continue;
      (globalThis as { gc?: () => void }).gc?.();
      process.stdout.write(`${JSON.stringify({ mem: process.memoryUsage() })}\n`);
    }
  });
  process.once('SIGTERM', () => {
    void close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
