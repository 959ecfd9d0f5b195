// The back link of the file screens: "Back to All Files" (spec §2 "/file/{file_id}/").
import { BackLink } from '../../components/page-layout/back-link';
import { paths } from '../../config/paths';

export const BACK_TO_ALL_FILES = 'Back to All Files';

export function BackToFiles() {
  return <BackLink to={paths.files()} label={BACK_TO_ALL_FILES} />;
}
