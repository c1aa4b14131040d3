// The pieces the front-end apps share: the page frame, the modal dialog and the spinner, each bringing its
// styles; the button and field styles are @rotunda/ui/controls.css. The mount helper is a separate entry
// (@rotunda/ui/mount), so the exposed screens never pull react-dom/client into a remote.
export { Dialog, type DialogProps } from './Dialog';
export { IconBadge, type IconComponent, Page, PageHeader, type PageHeaderProps } from './PageFrame';
export { Spinner, type SpinnerProps } from './Spinner';
