/**
 * Includes monsync's GitLab CI/CD component (templates/monsync.yml) as GitLab does, for tests: the
 * header's `spec: inputs:` checked against the inputs given (unknown input, value outside `options`,
 * missing input without default: an error, as GitLab refuses the pipeline), `$[[ inputs.NAME ]]`
 * interpolated in the text of the second document, and a job of the including file with the same
 * name merged over the included one (GitLab merges hashes key by key; the including file wins).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

type Obj = Record<string, any>;

/** The component's jobs with `inputs`, as GitLab expands them. */
export async function expandComponent(file: string, inputs: Record<string, string>): Promise<{ spec: Obj; jobs: Obj }> {
  const text = await readFile(file, 'utf8');
  const docs = parseAllDocuments(text);
  if (docs.length !== 2) throw new Error(`${file}: a component is a spec header and the jobs, ${docs.length} documents here`);
  for (const d of docs) if (d.errors.length) throw new Error(String(d.errors[0]));
  const spec = docs[0]!.toJS() as Obj;
  const declared = spec.spec.inputs as Obj;
  const values: Record<string, string> = {};
  for (const [name, v] of Object.entries(inputs)) if (!(name in declared)) throw new Error(`unknown input: ${name}`);
  for (const [name, d] of Object.entries(declared)) {
    const v = inputs[name] ?? d.default;
    if (v === undefined) throw new Error(`input ${name} is required`);
    if (d.options && !d.options.includes(v)) throw new Error(`input ${name}: '${v}' is not one of ${d.options.join(', ')}`);
    values[name] = String(v);
  }
  const body = text.slice(text.indexOf('\n---\n') + 5).replace(/\$\[\[\s*inputs\.([\w-]+)\s*\]\]/g, (_m, name: string) => {
    if (!(name in values)) throw new Error(`the component uses an input it does not declare: ${name}`);
    return values[name]!;
  });
  return { spec, jobs: parse(body) as Obj };
}

function merge(base: Obj, over: Obj): Obj {
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(over)) {
    out[k] = v && typeof v === 'object' && !Array.isArray(v) && base[k] && typeof base[k] === 'object' && !Array.isArray(base[k]) ? merge(base[k], v) : v;
  }
  return out;
}

/**
 * Job `name` of a pipeline that includes monsync's component pinned at `version`: the component's job
 * with the include's inputs, and the pipeline's own keys for it merged over.
 */
export async function gitlabJob(pipeline: Obj, name: string, root: string, version: string): Promise<Obj> {
  const includes = (pipeline.include ?? []) as Obj[];
  const ours = includes.filter((i) => typeof i.component === 'string' && i.component.startsWith('$CI_SERVER_FQDN/your-org/monsync/monsync@'));
  for (const inc of ours) {
    if (inc.component !== `$CI_SERVER_FQDN/your-org/monsync/monsync@v${version}`) throw new Error(`component pinned at ${inc.component}, the release is v${version}`);
    const { jobs } = await expandComponent(join(root, 'templates', 'monsync.yml'), (inc.inputs ?? {}) as Record<string, string>);
    if (!jobs[name]) continue;
    const job = merge(jobs[name], pipeline[name] ?? {});
    // GitLab refuses a variable whose value is not a string or a number (an empty input left bare is null).
    for (const [k, v] of Object.entries((job.variables ?? {}) as Obj)) {
      if (typeof v !== 'string' && typeof v !== 'number') throw new Error(`job ${name}: variable ${k} is ${JSON.stringify(v)}`);
    }
    return job;
  }
  throw new Error(`no included component defines the job ${name}`);
}
