// `tsx scripts/import-cycles.ts [folder]`: the import circles among the TypeScript files of a folder (src/ unless
// told), one line each, from the compiler's own reading of imports and re-exports (type-only ones count: a port named
// in its adapter ties the two as much as a value does). Exits 1 when there is one; test/operations/import-cycles.test.ts
// asserts there is none.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Each circle as the files it passes through, relative to `root`, starting from its first file in name order. */
export function importCycles(root: string): string[][] {
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => resolve(root, path))
    .sort();
  const known = new Set(files);
  const edges = new Map(files.map((file) => [file, importsOf(file, known)]));
  return stronglyConnected(files, edges)
    .filter((group) => group.length > 1 || edges.get(group[0]!)!.includes(group[0]!))
    .map((group) => circleThrough(group, edges).map((file) => relative(root, file)));
}

function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .filter(({ fileName }) => fileName.startsWith('.'))
    .map(({ fileName }) => resolve(dirname(file), fileName))
    .flatMap((path) => [path.replace(/\.js$/, '.ts'), `${path}.ts`, join(path, 'index.ts')].filter((candidate) => known.has(candidate)).slice(0, 1));
}

/** Tarjan's strongly connected components: each group of files that reach one another. */
function stronglyConnected(files: readonly string[], edges: ReadonlyMap<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file)!) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    groups.push(group.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return groups;
}

/** A shortest circle from the group's first file back to it, within the group (breadth first). */
function circleThrough(group: readonly string[], edges: ReadonlyMap<string, string[]>): string[] {
  const inGroup = new Set(group);
  const start = group[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (const file of queue) {
    for (const next of edges.get(file)!.filter((n) => inGroup.has(n))) {
      if (next === start) {
        const circle = [file];
        while (circle[0] !== start) circle.unshift(cameFrom.get(circle[0]!)!);
        return circle;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  throw new Error(`no circle through ${start}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? 'src');
  if (!statSync(root).isDirectory()) throw new Error(`${root} is not a folder`);
  const cycles = importCycles(root);
  for (const circle of cycles) console.log([...circle, circle[0]].join(' → '));
  process.exitCode = cycles.length ? 1 : 0;
}
