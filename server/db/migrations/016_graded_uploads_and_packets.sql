-- One name per thing (README, "Words"): a congregation's upload of graded pages is a graded
-- upload, the PDF a congregation prints for its helpers is a packet. Tables and job names follow.
ALTER TABLE feedback_uploads RENAME TO graded_uploads;
ALTER TABLE feedback_upload_pages RENAME TO graded_upload_pages;
ALTER TABLE distributed_files RENAME TO packets;

-- Runs of the graded-upload job keep their progress and lease under the job's new name; a job
-- still queued under the old name is found again by the recovery sweep (its upload is pending).
UPDATE job_progress SET group_name = 'process_graded_upload' WHERE group_name = 'process_study_helper_upload';
UPDATE job_leases SET job = 'process_graded_upload' WHERE job = 'process_study_helper_upload';
