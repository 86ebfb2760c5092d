import type { Indexer } from './indexer.ts';

/**
 * The operator's lines while the index database is away or full: when indexing stops, about once
 * a minute while it stays stopped, and when it resumes. Also the end of filling older jetton
 * operations' history texts.
 */
export function logIndexerStalls(indexer: Indexer, log: (line: string, level?: 'warn' | 'info') => void): void {
    let lastLine = 0;
    indexer.on('stalled', (problem, retryInMs, attempt) => {
        const now = Date.now();
        if (attempt > 1 && now - lastLine < 60_000) return;
        lastLine = now;
        const what = problem.kind === 'full' ? 'the index database is out of disk space' : 'the index database is unavailable';
        log(`indexer: paused, ${what} (${problem.detail}); retrying from the last committed block in ${(retryInMs / 1000).toFixed(1)} s, then backing off to 5 s`);
    });
    indexer.on('textsFilled', (operations, ms) => {
        log(`indexer: ${operations} jetton operations indexed by an earlier version got their history texts in ${(ms / 1000).toFixed(1)} s`, 'info');
    });
    indexer.on('textsFailed', error => {
        log(`indexer: stopped filling older jetton operations' history texts (${error.message}); their pages are still served, from the operations' columns`);
    });
    indexer.on('resumed', afterMs => {
        lastLine = 0;
        log(`indexer: resumed after ${(afterMs / 1000).toFixed(1)} s, from the last committed block`, 'info');
    });
}
