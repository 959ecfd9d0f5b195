-- Lists show a country's name by looking it up per row (lookupSql). Over the 250 countries a
-- sequential scan looked cheaper to PostgreSQL than the primary key (a random page read, then
-- the row), and it read all 250 rows for every row of the list: 0.3 ms of a 20-student page.
-- With the name in the index, one index-only lookup does it (~0.001 ms a row). Index-only needs
-- the table's visibility map, which loadReferenceData sets (VACUUM) after loading the names.
CREATE INDEX countries_iso_code_name_idx ON countries (iso_code) INCLUDE (display_name);
