// The logo field of the Edit Organization dialog: the shared image field (@rotunda/ui ImageUpload) uploading to
// the organization's logo (docs/product.md#4-states-and-transitions): checked, previewed and uploaded at once
// on choice; a refused file shows the spec's message (or the server's), and the previous logo stays.
import { ImageUpload, refusalOf } from '@rotunda/ui';
import { uploadLogo } from '../api';
import { OrgLogo } from '../common/OrgLogo';

interface LogoUploadProps {
  organizationId: number;
  organizationName: string;
  logo: string | null;
  onUploaded: (url: string) => void;
}

export function LogoUpload({ organizationId, organizationName, logo, onUploaded }: LogoUploadProps) {
  return (
    <ImageUpload
      label="Logo"
      noun="logo"
      current={<OrgLogo name={organizationName} logo={logo} size="large" />}
      hasImage={logo !== null}
      upload={(file, fileName) => uploadLogo(organizationId, file, fileName)}
      onUploaded={onUploaded}
      messageOf={refusalOf}
    />
  );
}
