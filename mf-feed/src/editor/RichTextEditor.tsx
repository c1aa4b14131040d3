// The rich-text body field: Quill 2 behind a small React wrapper (react-quill breaks on React 19),
// with the spec's toolbar (bold, italic, underline, ordered list, bullet list, link, clean). Quill and its
// styles are fetched only when an editor opens, so the feed itself never downloads them. React renders nothing
// inside the editor's element: Quill owns that DOM. The value is Quill's own markup, which the server
// sanitizes with the shared configuration (@rotunda/rules RICH_TEXT_PURIFY_CONFIG) before storing it.
// A new post's editor completes "@" mentions (useMentionCompletion): the editor stays a multi-line textbox that
// points at the list's options (aria-activedescendant), and reports the people still named in its text.
import { MENTIONS_MAX } from '@rotunda/rules';
import { Spinner } from '@rotunda/ui';
import type QuillType from 'quill';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { sanitizeBody } from '../content/rich-text';
import { type Mentioned, mentionText, stillMentioned } from '../mentions/mentions';
import { useMentionCompletion } from '../mentions/useMentionCompletion';
import './rich-text.css';

const TOOLBAR = [
  ['bold', 'italic', 'underline'],
  [{ list: 'ordered' }, { list: 'bullet' }],
  ['link'],
  ['clean'],
];
/** Only what the toolbar makes; pasted headings, images or colours are dropped. */
const FORMATS = ['bold', 'italic', 'underline', 'list', 'link'];

/**
 * Quill's own Tab keys, switched off: by default Tab types a tab character or indents, so a keyboard user who
 * tabs into the body can never tab out of it (WCAG 2.1.2, no keyboard trap). Tab and Shift+Tab move the focus.
 */
const TAB_MOVES_FOCUS = {
  tab: null,
  'remove tab': null,
  indent: null,
  outdent: null,
  'indent code-block': null,
  'outdent code-block': null,
};

export interface EditorValue {
  html: string;
  /** No visible text: the body counts as missing. */
  empty: boolean;
  /** The profile ids of the people chosen from the "@" completion whose names are still in the text. */
  mentions: number[];
}

async function loadQuill(): Promise<typeof QuillType> {
  const [{ default: Quill }] = await Promise.all([
    import(/* webpackChunkName: "quill" */ 'quill'),
    import(/* webpackChunkName: "quill" */ 'quill/dist/quill.snow.css'),
  ]);
  return Quill;
}

interface RichTextEditorProps {
  /** The id of the label naming the field. */
  labelId: string;
  /** The body to start from (an edit); read once, when the editor opens. */
  initialHtml?: string;
  /** Offer "@" completion of people from the directory (a new post: an edit does not change who is named). */
  completeMentions?: boolean;
  onChange: (value: EditorValue) => void;
}

export function RichTextEditor({
  labelId,
  initialHtml = '',
  completeMentions = false,
  onChange,
}: RichTextEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const quillRef = useRef<QuillType | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const initial = useRef(initialHtml);
  const labelRef = useRef(labelId);
  // Everyone chosen from the list, named still or not: the text decides whom the post mentions.
  const chosen = useRef<Mentioned[]>([]);
  const [mentionedCount, setMentionedCount] = useState(0);

  const completion = useMentionCompletion({
    limitReached: mentionedCount >= MENTIONS_MAX,
    onChoose: (person, query) => {
      const quill = quillRef.current;
      if (!quill) return;
      const caret = quill.getSelection(true).index;
      const inserted = `${mentionText(person)} `;
      chosen.current = [...chosen.current, person];
      quill.deleteText(query.start, caret - query.start, 'user');
      quill.insertText(query.start, inserted, 'user');
      quill.setSelection(query.start + inserted.length, 0, 'user');
    },
  });
  const completionRef = useRef(completion);
  completionRef.current = completion;
  const mentionsOn = useRef(completeMentions);

  // The option the keys act on, on the editing element, in the same commit as the list it points into: a passive
  // effect would leave a moment where the list shows and the editor points at nothing (or at a removed option).
  useLayoutEffect(() => {
    const root = quillRef.current?.root;
    if (!root || !mentionsOn.current) return;
    if (completion.activeId) root.setAttribute('aria-activedescendant', completion.activeId);
    else root.removeAttribute('aria-activedescendant');
  });

  useEffect(() => {
    const container = host.current;
    if (!container) return;
    let cancelled = false;
    const element = document.createElement('div');
    container.append(element);
    // Escape in Quill's link box closes the box; it must not also close the modal and lose the post.
    const keepDialogOpen = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && event.target instanceof Element && event.target.closest('.ql-tooltip')) {
        event.preventDefault();
      }
    };
    container.addEventListener('keydown', keepDialogOpen);
    // Before Quill's own keys: while the list is open, the arrows, Enter, Tab and Escape are the list's.
    const listKeys = (event: KeyboardEvent) => {
      if (event.target === quillRef.current?.root && completionRef.current.onKeyDown(event)) {
        event.stopPropagation();
      }
    };
    if (mentionsOn.current) container.addEventListener('keydown', listKeys, true);
    loadQuill().then(
      (Quill) => {
        if (cancelled) return;
        const quill = new Quill(element, {
          theme: 'snow',
          modules: { toolbar: TOOLBAR, keyboard: { bindings: TAB_MOVES_FOCUS } },
          formats: FORMATS,
          bounds: container,
        });
        if (initial.current) {
          quill.setContents(quill.clipboard.convert({ html: sanitizeBody(initial.current) }), 'silent');
        }
        const root = quill.root;
        root.setAttribute('role', 'textbox');
        root.setAttribute('aria-multiline', 'true');
        root.setAttribute('aria-labelledby', labelRef.current);
        if (mentionsOn.current) {
          // A multi-line textbox may not carry aria-expanded: aria-haspopup says a list may open.
          root.setAttribute('aria-haspopup', 'listbox');
          root.setAttribute('aria-autocomplete', 'list');
          root.setAttribute('aria-controls', completionRef.current.listId);
        }
        quillRef.current = quill;
        const followCaret = () => {
          if (!mentionsOn.current) return;
          const range = quill.getSelection();
          completionRef.current.update(range ? quill.getText(0, range.index) : null);
        };
        quill.on('text-change', () => {
          const text = quill.getText();
          const mentioned = stillMentioned(text, chosen.current);
          setMentionedCount(mentioned.length);
          onChangeRef.current({
            html: root.innerHTML,
            empty: text.trim() === '',
            mentions: mentioned.map((person) => person.profile_id),
          });
          followCaret();
        });
        quill.on('selection-change', followCaret);
        setStatus('ready');
      },
      (error: unknown) => {
        if (cancelled) return;
        console.error('The editor could not be loaded', error);
        setStatus('error');
      },
    );
    return () => {
      cancelled = true;
      container.removeEventListener('keydown', keepDialogOpen);
      container.removeEventListener('keydown', listKeys, true);
      quillRef.current = null;
      container.replaceChildren();
    };
  }, []);

  return (
    <div className="rich-text">
      {status === 'loading' && (
        <div className="rich-text__status">
          <Spinner label="Loading the editor" size="small" />
        </div>
      )}
      {status === 'error' && (
        <p className="rich-text__error" role="alert">
          The editor could not be loaded. Please close this window and try again.
        </p>
      )}
      <div ref={host} className="rich-text__host" />
      {completeMentions && completion.popup}
    </div>
  );
}
