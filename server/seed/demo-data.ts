// What a fresh installation shows: a believable, small programme to click through.

export const DEMO_PASSWORD = 'demo';

export const DEMO_ACCOUNTS = [
  { email: 'admin@demo.local', role: 'scanning_admin', isAdmin: true, congregation: null },
  { email: 'coordinator@demo.local', role: 'study_helper_coordinator', isAdmin: false, congregation: 0 },
  { email: 'user@demo.local', role: 'standard_user', isAdmin: false, congregation: null },
] as const;

export const DEMO_SERVICE_CENTERS = [
  {
    name: 'Accra Bible Correspondence Center',
    location: 'Accra',
    country: 'GH',
    recruitingPoints: [
      { name: 'Makola Market Stand', location: 'Makola, Accra' },
      { name: 'Kumasi Radio Campaign', location: 'Kumasi' },
    ],
    recruiters: [
      { name: 'Kwame Mensah', contact: 'kwame.mensah@example.org' },
      { name: 'Abena Owusu', contact: '+233 24 555 0142' },
    ],
    contactPersons: ['Esi Boateng', 'Yaw Asante'],
  },
  {
    name: 'Nairobi Study Center',
    location: 'Nairobi',
    country: 'KE',
    recruitingPoints: [
      { name: 'Kibera Community Hall', location: 'Kibera, Nairobi' },
      { name: 'Mombasa Newspaper Advert', location: 'Mombasa' },
    ],
    recruiters: [
      { name: 'Wanjiru Kamau', contact: 'wanjiru.kamau@example.org' },
      { name: 'Otieno Odhiambo', contact: '+254 712 555 019' },
    ],
    contactPersons: ['Grace Njeri'],
  },
  {
    name: 'Manila Correspondence Office',
    location: 'Quezon City',
    country: 'PH',
    recruitingPoints: [
      { name: 'Cubao Street Booth', location: 'Cubao, Quezon City' },
      { name: 'Cebu Online Campaign', location: 'Cebu City' },
    ],
    recruiters: [
      { name: 'Maria Santos', contact: 'maria.santos@example.org' },
      { name: 'Jose Reyes', contact: '+63 917 555 0188' },
    ],
    contactPersons: ['Ana Cruz', 'Paolo Garcia'],
  },
] as const;

export const DEMO_CONGREGATIONS = [
  { wbs_code: 'TX 40213', display_name: 'Central Church of Christ, Abilene' },
  { wbs_code: 'TN 37211', display_name: 'Hillside Church of Christ, Nashville' },
  { wbs_code: 'OK 73120', display_name: 'Northwest Church of Christ, Oklahoma City' },
  { wbs_code: 'AL 35801', display_name: 'Westside Church of Christ, Huntsville' },
] as const;

export const DEMO_STUDY_HELPERS = [
  ['Linda Carter', 'Robert Hughes', 'Susan Mitchell'],
  ['James Walker', 'Patricia Young'],
  ['Michael Brooks', 'Barbara Price', 'David Foster'],
  ['Karen Bennett', 'Thomas Reed'],
] as const;

export const DEMO_COURSES = [
  {
    name: 'Introduction to the Bible',
    version: '2',
    lessons: ['What Is the Bible?', 'God the Creator', 'The Promise to Abraham', 'The Law of Moses'],
    pagesPerLesson: 2,
  },
  {
    name: 'The Life of Jesus',
    version: '1',
    lessons: ['His Birth', 'His Teaching', 'His Miracles', 'His Death', 'His Resurrection', 'His Church'],
    pagesPerLesson: 2,
  },
  {
    name: 'Living as a Christian',
    version: '1',
    lessons: ['A New Life', 'Prayer', 'Worship', 'Serving Others'],
    pagesPerLesson: 1,
  },
] as const;

export const DEMO_FIRST_NAMES = [
  'Kofi', 'Ama', 'Kwabena', 'Akosua', 'Yaw', 'Efua', 'Brian', 'Faith', 'Kevin', 'Mercy', 'Samuel', 'Joy',
  'Mark', 'Rose', 'Daniel', 'Lucy', 'Juan', 'Maricel', 'Ramon', 'Liza', 'Carlo', 'Jasmine', 'Peter', 'Esther',
] as const;

export const DEMO_LAST_NAMES = [
  'Appiah', 'Owusu', 'Darko', 'Ofori', 'Mwangi', 'Otieno', 'Wanjiku', 'Kiprop', 'Dela Cruz', 'Bautista',
  'Villanueva', 'Ramos', 'Mensah', 'Achieng', 'Santos', 'Mendoza',
] as const;

export const DEMO_STUDENT_COUNT = 60;

export const GENDERS = ['his_Male', 'her_Female', 'their_Prefer Not to Answer'] as const;
export const RELATIONSHIP_STATUSES = ['married', 'single', 'divorced', 'widowed', 'separated', 'prefer_not_to_say'] as const;
export const EMPLOYMENTS = ['Farmer', 'Teacher', 'Student', 'Trader', 'Nurse', 'Driver', 'Unemployed', 'Retired'] as const;

export const DEMO_BAPTISM_STATUSES = ['pending', 'waiting_on_recruiter', 'missing_info', 'completed'] as const;
