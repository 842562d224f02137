// The answers of the routes, wrapped by kind as the envelope does (`{"booking": …}`, `[{"booking": …}]`),
// each registered once under a stable component name so the document can `$ref` it.
import * as z from "zod";
import * as objects from "./objects";

type ObjectName = keyof typeof objects;

/** Every response schema of the document, by component name. */
export const outputs = z.registry<{ id: string }>();
for (const [name, schema] of Object.entries(objects)) outputs.add(schema, { id: name });

export interface Answer {
  /** Component name of the 200 body. */
  id: string;
  schema: z.ZodType;
  /** A paginated list: answers the Link and page headers. */
  paginated?: boolean;
}

const answers = new Map<string, Answer>();

function answer(id: string, make: () => z.ZodType, paginated = false): Answer {
  let found = answers.get(id);
  if (!found) {
    found = { id, schema: make() };
    outputs.add(found.schema, { id });
    answers.set(id, found);
  }
  return paginated ? { ...found, paginated } : found;
}

const pascal = (kind: string) => kind.replace(/(^|_)(\w)/g, (_, _sep, c: string) => c.toUpperCase());
const nameOf = (kind: string, object: ObjectName) => (pascal(kind) === object ? object : `${object}As${pascal(kind)}`);

/** `{"<kind>": <object>}` */
export const one = (kind: string, object: ObjectName) =>
  // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the namespace is iterated whole above
  answer(`${nameOf(kind, object)}Answer`, () => z.object({ [kind]: objects[object] }));

/** `[{"<kind>": <object>}, …]` */
export const list = (kind: string, object: ObjectName, opts: { paginated?: boolean } = {}) =>
  // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the namespace is iterated whole above
  answer(`${nameOf(kind, object)}List`, () => z.array(z.object({ [kind]: objects[object] })), opts.paginated);

/** An answer that is not an envelope of one object kind. */
export const other = (id: string, schema: z.ZodType) => answer(id, () => schema);
