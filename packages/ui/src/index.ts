// The pieces the front-end apps share: the browser API client (api.ts), the page frame, the modal dialog, the
// spinner, the error line, the paged list with its data hook (usePages) and the hook that asks for the next page
// when the last card is seen, the not-found panel, the image upload field, the address inputs, the password
// checklist and the curation history section, the tab set, the list filters kept in the URL, the signal that a screen drew its first screen, each bringing its styles or naming those of @rotunda/ui/states.css; the image checks,
// link helpers and file download they build on. The button and field styles are @rotunda/ui/controls.css. The
// mount helper is a separate entry (@rotunda/ui/mount), so the exposed screens never pull react-dom/client into
// a remote.

export { AddressInputs, type AddressInputsProps, type AddressRow } from './AddressInputs';
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
} from './api';
export { CancelAndSave, type CancelAndSaveProps } from './CancelAndSave';
export {
  ContactItem,
  type ContactItemProps,
  NewTabLink,
  type NewTabLinkProps,
  SocialLinks,
  type SocialLinksProps,
} from './ContactList';
export { type Colleague, fetchOrganizationColleagues } from './colleagues';
export { Dialog, type DialogProps } from './Dialog';
export { fileNameOf, saveBlob } from './download';
export { ErrorLine, type ErrorLineProps } from './ErrorLine';
export { FilterForm, type FilterFormProps } from './FilterForm';
export {
  FilterField,
  type FilterFieldProps,
  GroupOptions,
  type GroupOptionsProps,
  ResetFilters,
  type ResetFiltersProps,
  SearchInput,
  type SearchInputProps,
} from './Filters';
export { FirstScreenDrawn } from './FirstScreenDrawn';
export { FormError, type FormErrorProps } from './FormError';
export { FormSection, type FormSectionProps } from './FormSection';
export { type HistoryEntry, HistorySection, type HistorySectionProps } from './HistorySection';
export { ImageUpload, type ImageUploadProps } from './ImageUpload';
export { IMAGE_ACCEPT, type ImageCheck, prepareImage } from './image-file';
export { safeHref, telHref } from './links';
export { fetchGroups, fetchIssues, type Group, type IssueArea } from './lookups';
export { NotFoundPanel, type NotFoundPanelProps } from './NotFoundPanel';
export { PagedList, type PagedListProps } from './PagedList';
export { IconBadge, type IconComponent, Page, PageHeader, type PageHeaderProps } from './PageFrame';
export { PasswordChecklist, type PasswordChecklistProps } from './PasswordChecklist';
export type { Division, StoredAddress } from './records';
export { Spinner, type SpinnerProps } from './Spinner';
export { shuffle } from './shuffle';
export { type TabDefinition, Tabs, type TabsProps } from './Tabs';
export { type FailureTexts, refusalOr, useAction } from './useAction';
export { type PageAnswer, type PageFetcher, type Pages, usePages } from './usePages';
export { type RecordPage, type RecordState, useRecord } from './useRecord';
export { SEARCH_DEBOUNCE_MS, type UrlFilters, useUrlFilters } from './useUrlFilters';
export { useWhenVisible } from './useWhenVisible';
