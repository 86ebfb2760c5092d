// The compiled service reads a few data files beside its modules (the OpenAPI document, the devnet's
// tables and compiled contracts); tsc emits only JavaScript, so they are copied into dist/ here. The
// OpenAPI document also goes in as JSON, which starts faster than parsing its YAML.
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(root, 'src');
const to = join(root, 'dist');
const ASSET = /\.(json|yaml)$/;

function copyAssets(dir) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) copyAssets(path);
        else if (ASSET.test(entry.name)) {
            const target = join(to, relative(from, path));
            mkdirSync(dirname(target), { recursive: true });
            copyFileSync(path, target);
        }
    }
}

copyAssets(from);
const openapi = join('api', 'openapi', 'openapi');
writeFileSync(join(to, `${openapi}.json`), JSON.stringify(parse(readFileSync(join(from, `${openapi}.yaml`), 'utf8'))));
// When this build finished: what tests compare the sources' times with, to know the build is not stale.
writeFileSync(join(to, '.built'), `${new Date().toISOString()}\n`);
