/**
 * Benchmarks of docs/BENCHMARKS.md. `npm run bench` runs all; `npm run bench -- ingest|devnet|api`
 * runs one (`jettons` for the token endpoints, `emulation` for the emulation endpoints, `startup` for the compiled CLI's start, `multisig` for order lookups, `lite` for a liteserver follower's catch-up from the devnet, `rewards` for round rewards, `memory` for what the devnet's producer holds per account, `actions` for the action engine on real mainnet traces). BENCH_PG_URL adds a PostgreSQL ingest run. Results are printed as Markdown rows.
 */
import { ingestBench } from './ingest.ts';
import { devnetAndApiBench } from './devnet-api.ts';
import { jettonsBench } from './jettons.ts';
import { emulationBench } from './emulation.ts';
import { startupBench } from './startup.ts';
import { multisigBench } from './multisig.ts';
import { liteBench } from './lite.ts';
import { rewardsBench } from './rewards.ts';
import { devnetMemoryBench } from './devnet-memory.ts';
import { actionsBench } from './actions.ts';

const sections = process.argv.slice(2);
const wants = (name: string) => sections.length === 0 || sections.includes(name);

console.log(`# native-explorer benchmarks — ${new Date().toISOString()}, node ${process.version}, ${(await import('node:os')).cpus().length} cores`);
if (wants('ingest')) await ingestBench();
if (wants('devnet') || wants('api')) await devnetAndApiBench({ api: wants('api') });
if (wants('jettons')) await jettonsBench();
if (wants('emulation')) await emulationBench();
if (wants('startup')) await startupBench();
if (wants('multisig')) await multisigBench();
if (wants('lite')) await liteBench();
if (wants('rewards')) await rewardsBench();
if (wants('memory')) await devnetMemoryBench();
if (wants('actions')) await actionsBench();
process.exit(0);
