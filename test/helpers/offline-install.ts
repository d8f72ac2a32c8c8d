// Installs packages into a fresh folder the way an adopter would, but from the local npm cache only: the lock file
// is cut from the repository's own package-lock.json (which pins every version the repository installed), so npm
// needs no registry metadata and takes each tarball from the cache by its integrity.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface LockEntry {
  version: string;
  integrity?: string;
  resolved?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [other: string]: unknown;
}

const repoLock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
const REGISTRY = 'https://registry.npmjs.org/';

/** Where Node would find `name` from the package installed at `from` (a lock path such as node_modules/a/node_modules/b). */
function resolve(from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (repoLock.packages[candidate]) return candidate;
    if (!base) return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}

const tarballUrl = (name: string, version: string) => `${REGISTRY}${name}/-/${name.split('/').pop()}-${version}.tgz`;

export interface OfflineInstall {
  dir: string;
  /** Installed packages, counted as folders holding a package.json under node_modules. */
  packages: string[];
  bytes: number;
}

/**
 * `dependencies`: registry packages by name (the version the repository locked is taken), and the package under
 * test as a tarball: `{ 'pay-checkout': { tarball, dependencies } }` with the dependencies of its package.json.
 */
export function installOffline(dir: string, registryPackages: string[], local?: { name: string; tarball: string; dependencies: Record<string, string>; peerDependencies?: Record<string, string>; optional?: string[] }): OfflineInstall {
  const packages: Record<string, LockEntry> = {};
  const visit = (path: string) => {
    if (packages[path]) return;
    const entry = repoLock.packages[path];
    if (!entry) throw new Error(`${path} is not in package-lock.json`);
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    packages[path] = { ...entry, resolved: tarballUrl(name, entry.version), dev: undefined, devOptional: undefined, peer: undefined, optional: undefined };
    const wanted = { ...entry.dependencies, ...entry.optionalDependencies, ...requiredPeers(entry) };
    for (const dep of Object.keys(wanted)) {
      const found = resolve(path, dep);
      if (found) visit(found);
      else if (!entry.optionalDependencies?.[dep]) throw new Error(`${dep} (needed by ${path}) is not in package-lock.json`);
    }
  };
  const rootDependencies: Record<string, string> = {};
  for (const name of registryPackages) {
    const path = `node_modules/${name}`;
    visit(path);
    rootDependencies[name] = repoLock.packages[path]!.version;
  }
  if (local) {
    const spec = `file:${local.tarball}`;
    rootDependencies[local.name] = spec;
    // Its optional peers are marked so, as its package.json marks them: unmarked, npm asks the registry for them,
    // which only a cache warmed by other work could answer (ENOTCACHED on a fresh machine).
    packages[`node_modules/${local.name}`] = {
      version: '0.0.0-local',
      resolved: spec,
      dependencies: local.dependencies,
      peerDependencies: local.peerDependencies,
      peerDependenciesMeta: Object.fromEntries((local.optional ?? []).map((name) => [name, { optional: true }])),
    };
    const peers = Object.keys(local.peerDependencies ?? {}).filter((p) => !local.optional?.includes(p));
    for (const dep of [...Object.keys(local.dependencies), ...peers]) visit(`node_modules/${dep}`);
  }
  const manifest = { name: 'adopter', version: '1.0.0', private: true, type: 'module', dependencies: rootDependencies };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(
    join(dir, 'package-lock.json'),
    JSON.stringify({ name: 'adopter', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'adopter', version: '1.0.0', dependencies: rootDependencies }, ...packages } }, null, 2),
  );
  const result = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: dir, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm install --offline failed in ${dir}:\n${result.stdout}\n${result.stderr}`);
  return { dir, packages: installedPackages(join(dir, 'node_modules')), bytes: folderBytes(join(dir, 'node_modules')) };
}

function requiredPeers(entry: LockEntry): Record<string, string> {
  return Object.fromEntries(Object.entries(entry.peerDependencies ?? {}).filter(([name]) => !entry.peerDependenciesMeta?.[name]?.optional));
}

function installedPackages(nodeModules: string, found: string[] = []): string[] {
  let names: string[];
  try {
    names = readdirSync(nodeModules);
  } catch {
    return found;
  }
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const path = join(nodeModules, name);
    if (name.startsWith('@')) {
      installedPackages(path, found);
      continue;
    }
    found.push(path.slice(path.lastIndexOf('node_modules') + 'node_modules/'.length));
    installedPackages(join(path, 'node_modules'), found);
  }
  return found;
}

/** Bytes of the files below `path` (apparent size, as `du -sb` counts). */
export function folderBytes(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + folderBytes(join(path, name)), 0);
}
