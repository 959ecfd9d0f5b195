// /files/uploads/{id}: the spec's placeholder text "Feedback Upload Page".
export default function FeedbackUpload() {
  return <h1 className="page-title">Feedback Upload Page</h1>;
}
