// The pieces the front-end apps share: the page frame, the modal dialog, the spinner, the not-found panel, the
// image upload field, the password checklist and the curation history section, each bringing its styles; the image
// checks, link helpers and file download they build on. The button and field styles are @rotunda/ui/controls.css. The mount helper is a separate entry
// (@rotunda/ui/mount), so the exposed screens never pull react-dom/client into a remote.
export { Dialog, type DialogProps } from './Dialog';
export { fileNameOf, saveBlob } from './download';
export { type HistoryEntry, HistorySection, type HistorySectionProps } from './HistorySection';
export { ImageUpload, type ImageUploadProps } from './ImageUpload';
export { IMAGE_ACCEPT, type ImageCheck, prepareImage } from './image-file';
export { SOCIAL_NETWORKS, type SocialField, safeHref, telHref } from './links';
export { NotFoundPanel, type NotFoundPanelProps } from './NotFoundPanel';
export { IconBadge, type IconComponent, Page, PageHeader, type PageHeaderProps } from './PageFrame';
export { PasswordChecklist, type PasswordChecklistProps } from './PasswordChecklist';
export { Spinner, type SpinnerProps } from './Spinner';
