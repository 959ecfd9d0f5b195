// The words the mock world is made of: the programme of the demo data (service centers, their
// recruiting points and recruiters, congregations, courses), names and countries.
import type { components } from '../../../../generated/api-types';

type Country = components['schemas']['Country'];

export const COUNTRIES: readonly Country[] = [
  { iso_code: 'GH', display_name: 'Ghana' },
  { iso_code: 'KE', display_name: 'Kenya' },
  { iso_code: 'PH', display_name: 'Philippines' },
  { iso_code: 'NG', display_name: 'Nigeria' },
  { iso_code: 'UG', display_name: 'Uganda' },
  { iso_code: 'ZM', display_name: 'Zambia' },
  { iso_code: 'IN', display_name: 'India' },
  { iso_code: 'US', display_name: 'United States of America' },
  { iso_code: 'GB', display_name: 'United Kingdom of Great Britain and Northern Ireland' },
  { iso_code: 'TZ', display_name: 'Tanzania, United Republic of' },
  { iso_code: 'MW', display_name: 'Malawi' },
  { iso_code: 'ZA', display_name: 'South Africa' },
  { iso_code: 'CM', display_name: 'Cameroon' },
  { iso_code: 'LR', display_name: 'Liberia' },
  { iso_code: 'SL', display_name: 'Sierra Leone' },
  { iso_code: 'JM', display_name: 'Jamaica' },
  { iso_code: 'HT', display_name: 'Haiti' },
  { iso_code: 'PG', display_name: 'Papua New Guinea' },
];

export const SERVICE_CENTERS = [
  {
    name: 'Accra Bible Correspondence Center',
    location: 'Accra',
    country: 'GH',
    code: 'ACC',
    recruitingPoints: [
      ['Makola Market Stand', 'Makola, Accra'],
      ['Kumasi Radio Campaign', 'Kumasi'],
    ],
    recruiters: [
      ['Kwame Mensah', 'kwame.mensah@example.org'],
      ['Abena Owusu', '+233 24 555 0142'],
    ],
    contactPersons: ['Esi Boateng', 'Yaw Asante'],
  },
  {
    name: 'Nairobi Study Center',
    location: 'Nairobi',
    country: 'KE',
    code: 'NBO',
    recruitingPoints: [
      ['Kibera Community Hall', 'Kibera, Nairobi'],
      ['Mombasa Newspaper Advert', 'Mombasa'],
    ],
    recruiters: [
      ['Wanjiru Kamau', 'wanjiru.kamau@example.org'],
      ['Otieno Odhiambo', '+254 712 555 019'],
    ],
    contactPersons: ['Grace Njeri'],
  },
  {
    name: 'Manila Correspondence Office',
    location: 'Quezon City',
    country: 'PH',
    code: 'MNL',
    recruitingPoints: [
      ['Cubao Street Booth', 'Cubao, Quezon City'],
      ['Cebu Online Campaign', 'Cebu City'],
    ],
    recruiters: [
      ['Maria Santos', 'maria.santos@example.org'],
      ['Jose Reyes', '+63 917 555 0188'],
    ],
    contactPersons: ['Ana Cruz', 'Paolo Garcia'],
  },
  {
    name: 'Lagos Bible School Office',
    location: 'Ikeja, Lagos',
    country: 'NG',
    code: 'LOS',
    recruitingPoints: [['Ikeja Bus Park', 'Ikeja']],
    recruiters: [['Chidi Okafor', '+234 803 555 0107']],
    contactPersons: ['Ngozi Eze'],
  },
  {
    name: 'Kampala Study Center',
    location: 'Kampala',
    country: 'UG',
    code: 'KLA',
    recruitingPoints: [['Owino Market Table', 'Kampala']],
    recruiters: [['Sarah Namubiru', 'sarah.namubiru@example.org']],
    contactPersons: ['Moses Kato'],
  },
] as const;

export const CONGREGATIONS = [
  ['TX 40213', 'Central Church of Christ, Abilene'],
  ['TN 37211', 'Hillside Church of Christ, Nashville'],
  ['OK 73120', 'Northwest Church of Christ, Oklahoma City'],
  ['AL 35801', 'Westside Church of Christ, Huntsville'],
  ['GA 30303', 'Downtown Church of Christ, Atlanta'],
  ['AR 72201', 'Eastside Church of Christ, Little Rock'],
  ['KY 40202', 'Southside Church of Christ, Louisville'],
  ['MS 39201', 'Capitol Church of Christ, Jackson'],
] as const;

export const COURSES = [
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

export const FIRST_NAMES = [
  'Kofi', 'Ama', 'Kwabena', 'Akosua', 'Yaw', 'Efua', 'Brian', 'Faith', 'Kevin', 'Mercy', 'Samuel', 'Joy',
  'Mark', 'Rose', 'Daniel', 'Lucy', 'Juan', 'Maricel', 'Ramon', 'Liza', 'Carlo', 'Jasmine', 'Peter', 'Esther',
] as const;

export const LAST_NAMES = [
  'Appiah', 'Owusu', 'Darko', 'Ofori', 'Mwangi', 'Otieno', 'Wanjiku', 'Kiprop', 'Dela Cruz', 'Bautista',
  'Villanueva', 'Ramos', 'Mensah', 'Achieng', 'Santos', 'Mendoza',
] as const;

export const HELPER_NAMES = [
  'Linda Carter', 'Robert Hughes', 'Susan Mitchell', 'James Walker', 'Patricia Young', 'Michael Brooks',
  'Barbara Price', 'David Foster', 'Karen Bennett', 'Thomas Reed', 'Nancy Coleman', 'Gary Simmons',
] as const;

export const EMPLOYMENTS = ['Farmer', 'Teacher', 'Student', 'Trader', 'Nurse', 'Driver', 'Unemployed', 'Retired'] as const;
