import { request } from './http.ts';

export interface Sample {
    name: string;
    labels: Record<string, string>;
    value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
export function parseMetrics(text: string): Sample[] {
    const samples: Sample[] = [];
    for (const line of text.split('\n')) {
        if (line === '' || line.startsWith('#')) continue;
        const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
        if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
        const labels: Record<string, string> = {};
        for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key] = value;
        samples.push({ name: match[1], labels, value: Number(match[3]) });
    }
    return samples;
}

/** The value of the one sample of `name` with (at least) these labels; undefined when there is none. */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
    const found = samples.filter(s => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
    if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
    return found[0]?.value;
}

/** GET /metrics of a service root (e.g. http://127.0.0.1:1234), parsed. */
export async function scrape(root: string): Promise<Sample[]> {
    const response = await request(`${root}/metrics`);
    if (response.status !== 200) throw new Error(`/metrics answered ${response.status}: ${response.text}`);
    return parseMetrics(response.text);
}
