// /resources: the spec's placeholder page, showing only "Resources Page".
export default function ResourcesPage() {
  return <h1 className="page-title">Resources Page</h1>;
}
