-- One name per thing (README, "Words"): a congregation's upload of graded pages is a graded
-- upload, the PDF a congregation prints for its helpers is a packet. Tables and job names follow.
ALTER TABLE feedback_uploads RENAME TO graded_uploads;
ALTER TABLE feedback_upload_pages RENAME TO graded_upload_pages;
ALTER TABLE distributed_files RENAME TO packets;
-- Their indexes too, so a query plan names them by their table.
ALTER INDEX IF EXISTS feedback_uploads_pkey RENAME TO graded_uploads_pkey;
ALTER INDEX feedback_uploads_congregation_idx RENAME TO graded_uploads_congregation_idx;
ALTER INDEX feedback_uploads_created_at_idx RENAME TO graded_uploads_created_at_idx;
ALTER INDEX feedback_uploads_sha256_idx RENAME TO graded_uploads_sha256_idx;
ALTER INDEX feedback_uploads_pending_idx RENAME TO graded_uploads_pending_idx;
ALTER INDEX IF EXISTS feedback_upload_pages_pkey RENAME TO graded_upload_pages_pkey;
ALTER INDEX feedback_upload_pages_page_idx RENAME TO graded_upload_pages_page_idx;
ALTER INDEX feedback_upload_pages_image_idx RENAME TO graded_upload_pages_image_idx;
ALTER INDEX IF EXISTS distributed_files_pkey RENAME TO packets_pkey;
ALTER INDEX distributed_files_congregation_idx RENAME TO packets_congregation_idx;
ALTER INDEX distributed_files_file_idx RENAME TO packets_file_idx;
ALTER INDEX distributed_files_file_congregation_key RENAME TO packets_file_congregation_key;

-- Runs of the graded-upload job keep their progress and lease under the job's new name; a job
-- still queued under the old name is found again by the recovery sweep (its upload is pending).
UPDATE job_progress SET group_name = 'process_graded_upload' WHERE group_name = 'process_study_helper_upload';
UPDATE job_leases SET job = 'process_graded_upload' WHERE job = 'process_study_helper_upload';
