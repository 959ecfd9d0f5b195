// What a failed save says: the server's own words for a refusal it explains (409, e.g. a name
// the service center already has), the screen's general text otherwise.
export { refusalMessage as saveErrorText } from '../../lib/refusal';
