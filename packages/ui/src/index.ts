// The pieces the front-end apps share: the browser API client (api.ts), the page frame, the modal dialog, the
// spinner, the error line, the not-found panel, the image upload field, the password checklist and the curation
// history section, each bringing its styles; the hook that loads a list's next page when its last card is seen;
// the image checks, link helpers and file download they build on. The button and field styles are
// @rotunda/ui/controls.css. The mount helper is a separate entry (@rotunda/ui/mount), so the exposed screens
// never pull react-dom/client into a remote.
export {
  ApiError,
  asList,
  call,
  fetchFile,
  type Method,
  type OutgoingRequest,
  type RequestOptions,
  refusalOf,
  request,
  type SendOptions,
  send,
  serverMessageOf,
} from './api';
export {
  ContactItem,
  type ContactItemProps,
  NewTabLink,
  type NewTabLinkProps,
  SocialLinks,
  type SocialLinksProps,
} from './ContactList';
export { Dialog, type DialogProps } from './Dialog';
export { fileNameOf, saveBlob } from './download';
export { ErrorLine, type ErrorLineProps } from './ErrorLine';
export { GroupOptions, type GroupOptionsProps, SearchInput, type SearchInputProps } from './Filters';
export { type HistoryEntry, HistorySection, type HistorySectionProps } from './HistorySection';
export { ImageUpload, type ImageUploadProps } from './ImageUpload';
export { IMAGE_ACCEPT, type ImageCheck, prepareImage } from './image-file';
export { SOCIAL_NETWORKS, type SocialField, safeHref, telHref } from './links';
export { NotFoundPanel, type NotFoundPanelProps } from './NotFoundPanel';
export { IconBadge, type IconComponent, Page, PageHeader, type PageHeaderProps } from './PageFrame';
export { PasswordChecklist, type PasswordChecklistProps } from './PasswordChecklist';
export { Spinner, type SpinnerProps } from './Spinner';
export { type FailureTexts, refusalOr, useAction } from './useAction';
export { canObserveVisibility, useWhenVisible } from './useWhenVisible';
