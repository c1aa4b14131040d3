// The in-memory engine: the port's semantics over documents held in this process (memory/columns.ts), answered a
// page at a time (memory/pages.ts); here, its writes and rebuilds. It is the read side of the replicated index
// (replica.ts), which keeps it equal to the Postgres index; the query checks and case folding are the other
// adapters' (semantics.ts).
import { Columns, type Row, rowOf } from './memory/columns.ts';
import { PageFinder } from './memory/pages.ts';
import { SortOrders } from './memory/sort-orders.ts';
import type {
  RebuildOutcome,
  RebuildSource,
  SearchDocument,
  SearchIndex,
  SearchIndexDefinition,
} from './port.ts';
import { Fields } from './semantics.ts';

/** Rebuilds the postings once this many replaced or removed entries linger in them, and they outnumber the live. */
const COMPACT_AFTER = 1024;

export interface MemorySearchIndex extends SearchIndex {
  /** Replaces documents and drops ids at once, with no search in between (the replica applies a refresh so). */
  apply(upserts: SearchDocument[], removals: string[]): void;
  /**
   * Replaces every document at once (a full reload) with those of `pages`, taken one page at a time: only their
   * compact rows are kept until the last, and searches answer from the documents before until then.
   */
  replaceAll(pages: AsyncIterable<SearchDocument[]> | Iterable<SearchDocument[]>): Promise<void>;
  readonly size: number;
}

export function createMemorySearchIndex(indexDefinition: SearchIndexDefinition): MemorySearchIndex {
  const fields = new Fields(indexDefinition);
  const { definition } = fields;
  const finder = new PageFinder();

  // Replaced and removed documents stay in the columns (and the postings) until laid out again.
  let columns = new Columns(definition);
  let orders = new SortOrders(columns, definition.sortFields);

  function layOut(rows: Row[]): void {
    columns = Columns.laidOut(definition, rows);
    orders = new SortOrders(columns, definition.sortFields);
  }

  function apply(upserts: SearchDocument[], removals: string[]): void {
    const prepared = fields.prepareDocuments(upserts);
    for (const id of fields.prepareIds(removals)) columns.drop(id);
    const added: number[] = [];
    for (const document of prepared) {
      columns.drop(document.id);
      added.push(columns.add(rowOf(definition, document)));
    }
    // Compacted when the dead pile up; else each walk kept in step.
    if (columns.dead > COMPACT_AFTER && columns.dead > columns.size) layOut(columns.liveRows());
    else orders.changed(added);
  }

  function addRows(rows: Map<string, Row>, page: SearchDocument[]): void {
    for (const document of fields.prepareDocuments(page)) {
      // A repeated id keeps its last version, as in one call.
      rows.delete(document.id);
      rows.set(document.id, rowOf(definition, document));
    }
  }

  async function replaceAll(
    pages: AsyncIterable<SearchDocument[]> | Iterable<SearchDocument[]>,
  ): Promise<void> {
    const rows = new Map<string, Row>();
    for await (const page of pages) addRows(rows, page);
    layOut([...rows.values()]);
  }

  /** The rebuild running in this engine, if any: a second one skips, as another replica's would. */
  let rebuilding = false;

  async function rebuildFrom(source: RebuildSource): Promise<RebuildOutcome> {
    if (rebuilding) return { rebuilt: false };
    rebuilding = true;
    try {
      const rows = new Map<string, Row>();
      // Writes made meanwhile are applied to the live documents and remembered: read again from the source until
      // none is left unread, then the rows replace the live documents with no await in between.
      const written = new Set<string>();
      onWrite = (upserts, removals) => {
        for (const document of upserts) written.add(document.id);
        for (const id of removals) written.add(id);
      };
      try {
        await source.eachPage(async (documents) => addRows(rows, documents));
        while (written.size > 0) {
          const ids = [...written];
          written.clear();
          const current = await source.documents(ids);
          for (const id of ids) rows.delete(id);
          addRows(rows, current);
        }
        layOut([...rows.values()]);
      } finally {
        onWrite = undefined;
      }
      return { rebuilt: true, documents: columns.size };
    } finally {
      rebuilding = false;
    }
  }

  let onWrite: ((upserts: SearchDocument[], removals: string[]) => void) | undefined;
  const write = (upserts: SearchDocument[], removals: string[]) => {
    onWrite?.(upserts, removals);
    apply(upserts, removals);
  };

  return {
    ensure: async () => 'current',
    upsert: async (documents) => write(documents, []),
    remove: async (ids) => write([], ids),
    rebuild: rebuildFrom,
    search: async (query) => finder.find(columns, orders, fields.prepareQuery(query)),
    clear: () => replaceAll([]),
    close: () => replaceAll([]),
    apply,
    replaceAll,
    get size() {
      return columns.size;
    },
  };
}
