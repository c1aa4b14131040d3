// The shared page frame of the micro-frontends. The mount helper is a separate entry (@rotunda/ui/mount), so
// the exposed screens never pull react-dom/client into a remote.
export { IconBadge, type IconComponent, Page, PageHeader, type PageHeaderProps } from './PageFrame';
