// The rich-text body field: Quill 2 behind a small React wrapper (react-quill breaks on React 19, DESIGN.md),
// with the spec's toolbar (bold, italic, underline, ordered list, bullet list, link, clean). Quill and its
// styles are fetched only when an editor opens, so the feed itself never downloads them. React renders nothing
// inside the editor's element: Quill owns that DOM. The value is Quill's own markup, which the server
// sanitizes with the shared configuration (@rotunda/rules RICH_TEXT_PURIFY_CONFIG) before storing it.
import { Spinner } from '@rotunda/ui';
import type QuillType from 'quill';
import { useEffect, useRef, useState } from 'react';
import { sanitizeBody } from '../content/rich-text';
import './rich-text.css';

const TOOLBAR = [
  ['bold', 'italic', 'underline'],
  [{ list: 'ordered' }, { list: 'bullet' }],
  ['link'],
  ['clean'],
];
/** Only what the toolbar makes; pasted headings, images or colours are dropped. */
const FORMATS = ['bold', 'italic', 'underline', 'list', 'link'];

export interface EditorValue {
  html: string;
  /** No visible text: the body counts as missing. */
  empty: boolean;
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
  onChange: (value: EditorValue) => void;
}

export function RichTextEditor({ labelId, initialHtml = '', onChange }: RichTextEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const initial = useRef(initialHtml);
  const labelRef = useRef(labelId);

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
    loadQuill().then(
      (Quill) => {
        if (cancelled) return;
        const quill = new Quill(element, {
          theme: 'snow',
          modules: { toolbar: TOOLBAR },
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
        quill.on('text-change', () =>
          onChangeRef.current({ html: root.innerHTML, empty: quill.getText().trim() === '' }),
        );
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
    </div>
  );
}
